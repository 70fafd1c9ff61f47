import { formatDateTime, formatDay } from '@portal/shared';
import type { ProbeDetail, Signature, Visit } from '@portal/shared';
import type { TFunction } from 'i18next';
import { shortTime } from '../../lib/format';
import { htmlToText } from '../../lib/rich-text';

/** A label and its value as the sign dialog lists them (both already in the UI's language). */
export type SignedRow = readonly [label: string, value: string];

export type Translate = (key: string) => string;

/** i18next's typed `t` for keys built here from data (a meaning, a test type). */
export function plainTranslate(t: TFunction): Translate {
  return (key) => String(t(key as never));
}

const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);
const text = (value: string | null | undefined) => (value ? value : '–');
const yesNo = (t: Translate, value: boolean) => t(value ? 'common.yes' : 'common.no');

/**
 * What a visit's signature covers, in words: the clinical fields its content hash is computed
 * from (ADR 050), in the order the card shows them. Keys and versions are left out.
 */
export function visitSignedRows(visit: Visit, t: Translate): SignedRow[] {
  return [
    [t('signatures.fields.date'), formatDay(visit.date)],
    [
      t('signatures.fields.time'),
      `${shortTime(visit.started_at)}–${visit.ended_at ? shortTime(visit.ended_at) : ''}`,
    ],
    [t('signatures.fields.isDone'), yesNo(t, visit.isDone)],
    ['QT', ms(visit.results.qt)],
    ['RR', ms(visit.results.rr)],
    ['PQ', ms(visit.results.pq)],
    ['QRS', ms(visit.results.qrs)],
    ['QTcB', ms(visit.results.qtcb)],
    ['QTcF', ms(visit.results.qtcfra)],
    [t('signatures.fields.comment'), text(htmlToText(visit.comment ?? ''))],
    [t('signatures.fields.outOfWindow'), yesNo(t, visit.out_of_window)],
    [t('signatures.fields.windowReason'), text(visit.window_reason)],
    [t('signatures.fields.notes'), text(htmlToText(visit.notes ?? ''))],
  ];
}

/**
 * What a sample's signature covers: its order's clinical fields, the adverse events and every
 * result with its unit (ADR 050). Logistics (status, arrival, shipment) are not signed.
 */
export function probeSignedRows(
  probe: ProbeDetail,
  t: Translate,
  medicineName: (id: number) => string,
): SignedRow[] {
  const b = probe.biochemistry_results;
  const c = probe.concentrations_results;
  const value = (v: number | null, unit: string) => (v === null ? '–' : `${v} ${unit}`);
  return [
    [t('signatures.fields.dateOfSample'), formatDay(probe.date_of_sample)],
    [t('signatures.fields.typeOfTest'), t(`probe.test.${probe.type_of_test}`)],
    [t('signatures.fields.typeOfMaterial'), t(`probe.material.${probe.type_of_material}`)],
    [t('signatures.fields.adverseEvents'), text(htmlToText(probe.adverse_events ?? ''))],
    ['ALT', value(b.alt, 'U/l')],
    ['AST', value(b.ast, 'U/l')],
    [t('signatures.fields.creatine'), value(b.creatine, 'mg/dl')],
    [t('signatures.fields.bilirubine'), value(b.bilirubine, 'mg/dl')],
    ...c.concentrations.map((row): SignedRow => [
      medicineName(row.medicine_id),
      value(row.value, 'ng/ml'),
    ]),
    [t('signatures.fields.hours'), c.hours === null ? '–' : String(c.hours)],
    [
      t('signatures.fields.dateOfAnalysis'),
      c.date_of_analysis ? formatDay(c.date_of_analysis) : '–',
    ],
    [t('signatures.fields.resultsAt'), probe.results_at ? formatDateTime(probe.results_at) : '–'],
  ];
}

/** The signer as the manifestation names them: a person's name, else the login (administrators). */
export function signerName(signer: Signature['signer']): string {
  return [signer.firstname, signer.surname].filter(Boolean).join(' ') || '–';
}

/** The signed-in user as the sign dialog names them, the same way. */
export function sessionSignerName(user: {
  firstname: string | null;
  surname: string | null;
  login: string;
}): string {
  return [user.firstname, user.surname].filter(Boolean).join(' ') || user.login;
}

/**
 * The signature manifestation (21 CFR 11.50): who, when (DD.MM.YYYY HH:mm in Warsaw) and what it
 * means, and whether a later change made it no longer valid (with when).
 */
export function manifestation(signature: Signature, t: Translate) {
  return {
    name: signerName(signature.signer),
    at: formatDateTime(signature.signed_at),
    meaning: t(`signatures.meanings.${signature.meaning}`),
    valid: signature.status === 'valid',
    invalidatedAt: signature.invalidated_at ? formatDateTime(signature.invalidated_at) : null,
  };
}
