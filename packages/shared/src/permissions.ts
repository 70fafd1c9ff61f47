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
  /** The patient API (`/api/me/*`): the signed-in patient's own data only. */
  'patient.self',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export type { AccountRole, Role };
