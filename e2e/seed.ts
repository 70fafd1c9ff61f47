import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PORT } from './env.js';

/** What scripts/seed-e2e.mjs added before the portal started (past visits the UI cannot book). */
export interface E2eSeed {
  // ---- panel documents and laboratory integration (issue 11) ----
  documents: {
    /** A doctor-panel document (txt) the doctor downloads on /documents. */
    doctor_document: { id: number; name: string };
    /** The stored synevo_last_error_message. */
    synevo_error: string;
  };
  // ---- end of panel documents ----
  // ---- unmatched laboratory results (issue 12) ----
  /** Per screen size: a sample of Ludwik Laboratoryjny, a result to match to it, one to discard. */
  unmatched: Record<
    'desktop' | 'phone',
    {
      probe: SeededProbe;
      match: { id: number; code: string };
      discard: { id: number; code: string };
    }
  >;
  // ---- end of unmatched laboratory results ----
  // ---- data import (issue 12) ----
  /** The ids a data-import csv names: a unit and doctor of its own, the shipped group 1. */
  imports: {
    unit_id: number;
    doctor_id: number;
    group_id: number;
    subgroup_id: number;
    dose: number;
    medicines: string;
  };
  // ---- end of data import ----
  // ---- retention (issue 24) ----
  /** A patient of a unit of its own whose participation ended 12 years ago. */
  retention: { patient_id: number };
  // ---- end of retention ----
  // ---- monitor (issue 23 item 4) ----
  /** A patient of the doctor's unit with one past visit, unrecorded (monitor.spec.ts). */
  monitor: { patient_id: number; visit_id: number };
  // ---- end of monitor ----
  // ---- signing and locks (issue 23) ----
  /** A patient with a recorded, unsigned visit and a sample with results, unsigned. */
  signing: { patient_id: number; visit_id: number; probe_id: number; probe_code: string };
  // ---- end of signing and locks ----
  unit: { id: number; name: string };
  doctor: { id: number; login: string; password: string };
  /** A patient with one past, unrecorded visit (the visit card's test records it). */
  recorded: { patient_id: number; visit_id: number; date: string };
  /** A patient whose only visit was 60 days ago: visit 2's window has closed. */
  overdue: { patient_id: number; visit_id: number; date: string };
  /** Per screen size a patient whose only visit is today, begun at 00:00 (ADR 045). */
  visitOfToday: Record<'desktop' | 'phone', { patient_id: number; visit_id: number; date: string }>;
  /** A woman's collected sample (issue 10, probe-detail.spec.ts). */
  sampleDetail: {
    patient_id: number;
    probe_id: number;
    code: string;
    /** Her sample with results received over HL7 (issue 20): "< 0,5" and comments. */
    hl7_probe_id: number;
    hl7_code: string;
  };
  /** Issue 10, labels and reception: samples of Lucjan Etykietowy (the doctor's unit). */
  labels: {
    patient_id: number;
    /** DOM - WŁO, code E2EDW0001. */
    print: { id: number; code: string };
    /** POR - ŻYL, not yet scanned: one per attempt of the reception test. */
    reception: { id: number; code: string }[];
  };
  /**
   * The probes list test's samples (E2E-PL-001…004): today's and two older ones of this unit's
   * patients, and one of a patient of another unit.
   */
  probeList: {
    other_unit: { id: number; name: string };
    today: SeededProbe;
    zalegly_recent: SeededProbe;
    zalegly_old: SeededProbe;
    other: SeededProbe;
  };
}

export interface SeededProbe {
  id: number;
  code: string;
}

/** The seed of this run's portal (the file is keyed by port, like the portal itself). */
export function e2eSeed(): E2eSeed {
  return JSON.parse(
    readFileSync(path.join(tmpdir(), `portal-e2e-seed-${PORT}.json`), 'utf8'),
  ) as E2eSeed;
}
