import { describe, expect, it } from 'vitest';
import type { ProbeDetail, Signature, Visit } from '@portal/shared';
import {
  manifestation,
  probeSignedRows,
  sessionSignerName,
  signerName,
  visitSignedRows,
} from './signature-format';

const t = (key: string) => `[${key}]`;

const signature = (overrides: Partial<Signature> = {}): Signature => ({
  id: 1,
  signer: { id: 7, firstname: 'Wiktor', surname: 'Wizytowy' },
  meaning: 'approve',
  // 10:05 UTC is 11:05 in Warsaw in winter, 12:05 in summer.
  signed_at: '2026-01-15T10:05:00.000Z',
  content_hash: 'ab'.repeat(32),
  status: 'valid',
  invalidated_at: null,
  ...overrides,
});

describe('signature manifestation', () => {
  it('names the signer, the time in Warsaw as DD.MM.YYYY HH:mm and the meaning', () => {
    expect(manifestation(signature(), t)).toEqual({
      name: 'Wiktor Wizytowy',
      at: '15.01.2026 11:05',
      meaning: '[signatures.meanings.approve]',
      valid: true,
      invalidatedAt: null,
    });
    expect(manifestation(signature({ signed_at: '2026-07-01T22:30:00.000Z' }), t).at).toBe(
      '02.07.2026 00:30',
    );
  });

  it('marks an invalidated signature with when it stopped being valid', () => {
    const shown = manifestation(
      signature({ status: 'invalidated', invalidated_at: '2026-01-16T08:00:00.000Z' }),
      t,
    );
    expect(shown.valid).toBe(false);
    expect(shown.invalidatedAt).toBe('16.01.2026 09:00');
  });

  it('names an administrator by the login the server puts in surname', () => {
    expect(signerName({ id: 1, firstname: null, surname: 'koordynator' })).toBe('koordynator');
    expect(signerName({ id: 1, firstname: null, surname: null })).toBe('–');
    expect(sessionSignerName({ firstname: null, surname: null, login: 'admin' })).toBe('admin');
    expect(sessionSignerName({ firstname: 'Anna', surname: 'Nowak', login: 'a@x.pl' })).toBe(
      'Anna Nowak',
    );
  });
});

describe('signed content in words', () => {
  it('lists a visit card’s signed fields with units, plain text and yes/no', () => {
    const visit = {
      date: '2026-01-15',
      started_at: '09:00:00',
      ended_at: '09:30:00',
      isDone: true,
      results: { qt: 400, rr: 640, pq: null, qrs: 90, qtcb: 500, qtcfra: 464 },
      comment: '<p>Rytm <strong>zatokowy</strong></p>',
      out_of_window: false,
      window_reason: null,
      notes: null,
    } as unknown as Visit;
    const rows = Object.fromEntries(visitSignedRows(visit, t));
    expect(rows).toMatchObject({
      '[signatures.fields.date]': '15.01.2026',
      '[signatures.fields.time]': '09:00–09:30',
      '[signatures.fields.isDone]': '[common.yes]',
      QT: '400 ms',
      PQ: '–',
      QTcF: '464 ms',
      '[signatures.fields.comment]': 'Rytm zatokowy',
      '[signatures.fields.outOfWindow]': '[common.no]',
      '[signatures.fields.notes]': '–',
    });
  });

  it('lists a sample’s results with their units and the medicines by name', () => {
    const probe = {
      date_of_sample: '2026-01-14',
      type_of_test: 'biochemistry',
      type_of_material: 'venous',
      adverse_events: null,
      biochemistry_results: { alt: 55, ast: null, creatine: 0.9, bilirubine: 1.1 },
      concentrations_results: {
        hours: 12,
        date_of_analysis: '2026-01-15',
        concentrations: [{ medicine_id: 7, value: 4.2 }],
      },
      results_at: '2026-01-15T10:05:00.000Z',
    } as unknown as ProbeDetail;
    const rows = probeSignedRows(probe, t, (id) => `lek ${id}`);
    expect(Object.fromEntries(rows)).toMatchObject({
      '[signatures.fields.typeOfTest]': '[probe.test.biochemistry]',
      ALT: '55 U/l',
      AST: '–',
      '[signatures.fields.creatine]': '0.9 mg/dl',
      'lek 7': '4.2 ng/ml',
      '[signatures.fields.dateOfAnalysis]': '15.01.2026',
      '[signatures.fields.resultsAt]': '15.01.2026 11:05',
    });
  });
});
