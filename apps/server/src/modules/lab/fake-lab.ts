import { Hl7Message, Hl7Segment } from '@medplum/core';

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
  samples: FakeSample[];
}

const ANALYTE_NAMES: Record<string, string> = {
  ALT: 'Aminotransferaza alaninowa',
  AST: 'Aminotransferaza asparaginianowa',
  CREA: 'Kreatynina',
  BIL: 'Bilirubina calkowita',
  HSLD: 'Godziny od ostatniej dawki',
};

/** One ER7 message (segments separated by CR), built with @medplum/core. */
export function buildFakeOru(input: FakeOru): string {
  const segments = [
    new Hl7Segment([
      'MSH',
      '^~\\&',
      'SYNEVO',
      'SYNEVO-LAB',
      'PORTAL',
      'KARDIO',
      '20261124083000',
      '',
      input.messageType ?? 'ORU^R01^ORU_R01',
      input.controlId,
      'P',
      '2.5',
    ]),
    new Hl7Segment([
      'PID',
      '1',
      '',
      'LAB-PATIENT-1^^^SYNEVO',
      '',
      'PACJENT^TESTOWY',
      '',
      input.birthDate ?? '',
      input.sex ?? '',
    ]),
  ];
  input.samples.forEach((sample, sampleIndex) => {
    segments.push(
      new Hl7Segment([
        'OBR',
        String(sampleIndex + 1),
        '',
        `${sample.code}^SYNEVO`,
        'PANEL^Panel badan^L',
        '',
        '',
        sample.observedAt ?? '202611230900',
      ]),
    );
    sample.observations.forEach((observation, index) => {
      segments.push(
        new Hl7Segment([
          'OBX',
          String(index + 1),
          observation.valueType ?? 'NM',
          `${observation.code}^${ANALYTE_NAMES[observation.code] ?? observation.code}^L`,
          '',
          String(observation.value),
          observation.unit,
          observation.range ?? '',
          '',
          '',
          '',
          'F',
          '',
          '',
          observation.observedAt ?? '',
        ]),
      );
    });
  });
  return new Hl7Message(segments).toString();
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
