import type { AccountRole, Role } from './constants.js';

/**
 * Everything a signed-in user may be allowed to do. The server decides which of these an actor
 * holds (apps/server/src/plugins/policy.ts) and sends the list with the session, so the web app
 * asks `can('audit.read')` instead of re-deriving rules from the role.
 */
export const PERMISSIONS = [
  'units.read',
  'units.manage',
  'doctors.manage',
  'admins.manage',
  'credentials.print',
  'doctors.lookup',
  'lookups.read',
  'patients.read',
  'patients.write',
  'patients.all_units',
  'audit.read',
  /** The audit trail's exports (PDF, CSV) and its chain check: administrators and the IOD, not a
   * monitor (whose list hides identities the exports keep; ADR 049, ADR 051). */
  'audit.export',
  'settings.manage',
  /** A unit's work-hour rules: every unit for administrators, the own unit for a doctor. */
  'calendar.manage',
  /** Visits of reachable patients: read, and the overdue list (own unit for a doctor). */
  'visits.read',
  /** Book, reschedule, cancel and record visits of reachable patients. */
  'visits.write',
  /** Samples of reachable patients: the list, the detail, the labels. */
  'probes.read',
  /** Create samples, report adverse events, record a sample's arrival (reception scan). */
  'probes.write',
  /** Enter or correct a sample's results by hand (audited). */
  'probes.results',
  /** Safety alerts of reachable patients. */
  'alerts.read',
  /** Acknowledge a safety alert (audited). */
  'alerts.acknowledge',
  /** Kit orders of reachable patients: the list, the detail, the labels of their samples. */
  'probe_sets.read',
  /** Order kits for a reachable patient. */
  'probe_sets.order',
  /** Accept or reject an order, enter waybills, refresh the tracking (administrators). */
  'probe_sets.manage',
  /** Announcements: read all. */
  'announcements.read',
  /** Send announcements; a doctor edits and deletes only the own (policies/announcements.ts). */
  'announcements.write',
  /** The doctor panel's documents (read and download). */
  'documents.read',
  /** Results the laboratory sent that match no sample: see, match, discard (administrators). */
  'lab.unmatched',
  /** The data import: upload batches, flush and restore, templates (administrators). */
  'imports.manage',
  /** The Excel report and the CDISC ODM export (administrators). */
  'reports.generate',
  /** A patient's copy of everything stored about them, JSON and PDF (administrators; ADR 054). */
  'patients.export',
  /** Reports and exports with identities (names, PESEL, birth date) rather than pseudonyms. */
  'exports.identified',
  /** The HL7 FHIR R4 export, pseudonymised by default (administrators; ADR 055). */
  'exports.fhir',
  /** Retention: the dry run and the anonymisation job (administrators; ADR 059). */
  'retention.manage',
  /** The study dashboard's figures (ADR 060): every unit for administrators, the own for a doctor. */
  'dashboard.read',
  /** Lock and unlock a record and the whole study (administrators, ADR 048). */
  'records.lock',
  /** The patient API (`/api/me/*`): the signed-in patient's own data only. */
  'patient.self',
  /** Sign a visit card or a sample's results electronically (ADR 050). */
  'signatures.sign',
  /** Read the monitors' queries of reachable records. */
  'queries.read',
  /** Answer a monitor's query (the site: doctors, administrators). */
  'queries.answer',
  /** A monitor's own writes: open, message, close and reopen queries (ADR 051). */
  'monitor.queries',
  /** A monitor's source data verification marks (ADR 051). */
  'monitor.verify',
  /** Manage monitor accounts (administrators). */
  'monitors.manage',
  /** The read-access log: who saw which patient's data (ADR 052). */
  'access_log.read',
  /** PESEL unmasked in every answer and the identity call (ADR 053); without it `440514*****`. */
  'patients.identity.read',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Which permissions each role holds: the one table (the server's policy decides with it,
 * apps/server/src/plugins/policy.ts, and sends the signed-in user's list with the session).
 */
export const ROLE_PERMISSIONS: Record<AccountRole, readonly Permission[]> = {
  // Administrators manage the whole study: every staff permission there is, but not a monitor's
  // own writes (verification and queries are the monitor's; ADR 051).
  admin: PERMISSIONS.filter(
    (permission) => permission !== 'patient.self' && !permission.startsWith('monitor.'),
  ),
  // Doctors work with the patients of their own unit only (apps/server/src/policies/units.ts) and are read-only
  // on units, doctors and administrators.
  doctor: [
    'units.read',
    'credentials.print',
    'doctors.lookup',
    'lookups.read',
    'patients.read',
    'patients.write',
    // The own unit's calendar only (policies/units.ts reachesUnit).
    'calendar.manage',
    // Visits of the own unit's patients (policies/visits.ts).
    'visits.read',
    'visits.write',
    // Samples and safety alerts of the own unit's patients (policies/probes.ts, alerts.ts).
    'probes.read',
    'probes.write',
    'probes.results',
    'alerts.read',
    'alerts.acknowledge',
    // Kit orders of the own unit's patients: read and order; deciding is the coordinators'.
    'probe_sets.read',
    'probe_sets.order',
    // Announcements: send; edit and delete only the own (policies/announcements.ts).
    'announcements.read',
    'announcements.write',
    'documents.read',
    // The dashboard of the own unit (policies/dashboard.ts).
    'dashboard.read',
    'signatures.sign',
    'queries.read',
    'queries.answer',
    // A doctor registers and edits the own unit's patients, PESEL included (ADR 053).
    'patients.identity.read',
  ],
  // The data protection officer (IOD, ADR 053): reads the read-access log and the audit trail of
  // every unit and may reveal an identity; no patient writes.
  iod: [
    'access_log.read',
    'audit.read',
    'audit.export',
    'patients.identity.read',
    'patients.all_units',
  ],
  // Patients use the patient API only (`/api/me/*`, the own record): every staff route answers
  // them 403, and the row scopes confine them to the own patient row (apps/server/src/policies/patients.ts).
  patient: ['patient.self'],
  // A monitor (CRA) reads the patients, visits, samples and audit trail of the assigned units
  // (apps/server/src/policies/units.ts), without PESEL and contacts (policies/identity.ts), and
  // writes only its verification marks and queries (ADR 051).
  monitor: [
    'units.read',
    'lookups.read',
    'patients.read',
    'visits.read',
    'probes.read',
    'audit.read',
    'queries.read',
    'monitor.queries',
    'monitor.verify',
    // The dashboard of the assigned units (policies/dashboard.ts through the unit scope).
    'dashboard.read',
  ],
};

export type { AccountRole, Role };
