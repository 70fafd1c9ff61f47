import { composite, escapeHl7 } from './hl7-er7.js';

/**
 * A fake laboratory (tests, the demo, the bench): builds ORU^R01 messages as Synevo's interface
 * engine would send them, one OBR per sample. Malformed variants are made by the callers from
 * these (see hl7-parse.test.ts).
 */
export interface FakeObservation {
  /** OBX-3: ALT, AST, CREA, BIL, a drug's CAS number or INN, or HSLD (hours since the dose). */
  code: string;
  /** OBX-5 as sent (a number, or any text to make a malformed message). */
  value: string | number;
  unit: string;
  range?: string;
  /** OBX-14, YYYYMMDD[HHMM]. */
  observedAt?: string;
  /** OBX-2, NM unless told. */
  valueType?: string;
}

export interface FakeSample {
  /** OBR-3, the filler order number: the sample's code. */
  code: string;
  /** OBR-7, YYYYMMDD[HHMM]. */
  observedAt?: string;
  observations: FakeObservation[];
}

export interface FakeOru {
  controlId: string;
  messageType?: string;
  /** PID-8: M, F or U. */
  sex?: string;
  /** PID-7, YYYYMMDD. */
  birthDate?: string;
  /** PID-5: family and given name (PACJENT TESTOWY unless told). */
  name?: { surname: string; firstname: string };
  samples: FakeSample[];
}

const ANALYTE_NAMES: Record<string, string> = {
  ALT: 'Aminotransferaza alaninowa',
  AST: 'Aminotransferaza asparaginianowa',
  CREA: 'Kreatynina',
  BIL: 'Bilirubina calkowita',
  HSLD: 'Godziny od ostatniej dawki',
};

/**
 * One ER7 message (segments separated by CR). Every value is escaped for its field or component
 * (ADR 033), so a code or name holding `|`, `^`, `&`, `~`, `\` or CR stays one value; only an SN
 * value (OBX-2 `SN`, e.g. `<^0.5`) and the message type are written as given, being composites.
 */
export function buildFakeOru(input: FakeOru): string {
  const e = (text: string) => escapeHl7(text);
  const segments = [
    [
      'MSH|^~\\&',
      'SYNEVO',
      'SYNEVO-LAB',
      'PORTAL',
      'KARDIO',
      '20261124083000',
      '',
      input.messageType ?? 'ORU^R01^ORU_R01',
      e(input.controlId),
      'P',
      '2.5',
    ].join('|'),
    [
      'PID',
      '1',
      '',
      composite(['LAB-PATIENT-1', '', '', 'SYNEVO']),
      '',
      composite([input.name?.surname ?? 'PACJENT', input.name?.firstname ?? 'TESTOWY']),
      '',
      e(input.birthDate ?? ''),
      e(input.sex ?? ''),
    ].join('|'),
  ];
  input.samples.forEach((sample, sampleIndex) => {
    segments.push(
      [
        'OBR',
        String(sampleIndex + 1),
        '',
        composite([sample.code, 'SYNEVO']),
        composite(['PANEL', 'Panel badan', 'L']),
        '',
        '',
        e(sample.observedAt ?? '202611230900'),
      ].join('|'),
    );
    sample.observations.forEach((observation, index) => {
      const valueType = observation.valueType ?? 'NM';
      segments.push(
        [
          'OBX',
          String(index + 1),
          e(valueType),
          composite([observation.code, ANALYTE_NAMES[observation.code] ?? observation.code, 'L']),
          '',
          valueType === 'SN' ? String(observation.value) : e(String(observation.value)),
          e(observation.unit),
          e(observation.range ?? ''),
          '',
          '',
          '',
          'F',
          '',
          '',
          e(observation.observedAt ?? ''),
        ].join('|'),
      );
    });
  });
  return segments.join('\r');
}

/** A panel with normal biochemistry for one sample. */
export function normalPanel(code: string): FakeSample {
  return {
    code,
    observations: [
      { code: 'ALT', value: 25, unit: 'U/L', range: '10-40' },
      { code: 'AST', value: 22, unit: 'U/L', range: '10-40' },
      { code: 'CREA', value: 0.9, unit: 'mg/dL', range: '0.6-1.2' },
      { code: 'BIL', value: 0.7, unit: 'mg/dL', range: '<1.2' },
    ],
  };
}
