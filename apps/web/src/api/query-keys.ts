/**
 * Every query key of the web app, in one place. A key starts with its entity, so a write that
 * invalidates `[entity]` reaches every reader of it: lists, pickers and details alike.
 */
export const ENTITY = {
  units: 'units',
  doctors: 'doctors',
  admins: 'admins',
  /** Monitor (CRA) accounts (ADR 051). */
  monitors: 'monitors',
  patients: 'patients',
  audit: 'audit',
  accessLog: 'access_log',
  lookups: 'lookups',
  settings: 'settings',
  calendar: 'calendar',
  visits: 'visits',
  probes: 'probes',
  announcements: 'announcements',
  documents: 'documents',
  /** Kit orders (issue 11): the list, one order, a patient's orders. */
  probeSets: 'probe_sets',
  /** Safety alerts: an acknowledgement or a saved result refreshes every alert query. */
  alerts: 'alerts',
  /** Unmatched laboratory results: a match or a discard refreshes every list of them. */
  labUnmatched: 'lab_unmatched',
  /** Import batches: an import, a flush or a restore refreshes the list. */
  imports: 'imports',
  /** A monitor's queries (ADR 051): any step refreshes the list and every record's thread. */
  queries: 'queries',
} as const;

export const queryKeys = {
  /** Every query of an entity: what a write invalidates. */
  all: (entity: string) => [entity] as const,
  /** A page of a paged list (units, doctors, admins, patients, audit) with its query. */
  list: (entity: string, params: Record<string, unknown>) => [entity, 'list', params] as const,

  criteriaGroups: () => [ENTITY.lookups, 'inclusion_criteria_group'] as const,
  exclusionCriteria: () => [ENTITY.lookups, 'exclusion_criteria'] as const,
  medicines: () => [ENTITY.lookups, 'medicine'] as const,

  unitOptions: () => [ENTITY.units, 'all'] as const,
  /** The units within the user's reach (`/units/all?reachable=1`), for lists' unit filters. */
  reachableUnitOptions: () => [ENTITY.units, 'all', 'reachable'] as const,
  doctorOptions: (unitId: number | null) => [ENTITY.doctors, 'all', unitId] as const,
  /** Search-as-you-type matches of a patient picker, and patients named by id. */
  patientOptions: (search: string, ids: readonly string[]) =>
    [ENTITY.patients, 'options', search, ids] as const,

  doctor: (id: number | null) => [ENTITY.doctors, 'detail', id] as const,
  admin: (id: number | null) => [ENTITY.admins, 'detail', id] as const,
  monitor: (id: number | null) => [ENTITY.monitors, 'detail', id] as const,
  patient: (id: number | null) => [ENTITY.patients, 'detail', id] as const,
  /** The retention's dry run and its latest run (ADR 059). */
  retentionPreview: () => ['retention', 'preview'] as const,
  retentionLatest: () => ['retention', 'latest'] as const,
  /** The study dashboard (ADR 060): under patients, so a registration or deletion refreshes it. */
  dashboard: (unitId: string | null) => [ENTITY.patients, 'dashboard', unitId] as const,
  /** The project number the registration wizard offers (ADR 041). */
  nextProjectNumber: () => [ENTITY.patients, 'next_project_number'] as const,
  peselStatus: (pesel: string, exceptId: number | null) =>
    [ENTITY.patients, 'validate_pesel', pesel, exceptId] as const,
  patientNotes: (patientId: number) => [ENTITY.patients, patientId, 'notes'] as const,
  patientFiles: (patientId: number) => [ENTITY.patients, patientId, 'files'] as const,
  /** Messages address the patient's user account, not the patient record. */
  patientMessages: (userId: number) => [ENTITY.patients, 'messages', userId] as const,
  /** Announcements to every patient: one list, no paging. */
  announcements: () => [ENTITY.announcements] as const,
  /** A patient's visits and its next visit's window: a booking invalidates `[patients]`. */
  patientVisits: (patientId: number) => [ENTITY.patients, patientId, 'visits'] as const,
  patientVisitWindow: (patientId: number) => [ENTITY.patients, patientId, 'visit_window'] as const,
  /** A unit's slots on a day, booked or free. */
  unitSlots: (unitId: number, date: string | null) =>
    [ENTITY.visits, 'slots', unitId, date] as const,
  /** A patient's samples: under `probes`, so that any change to a sample refreshes the tab. */
  patientProbes: (patientId: number) => [ENTITY.probes, 'patient', patientId] as const,
  /** The number a new sample would get now, for the form's values (not reserved). */
  probeCodePreview: (patientId: number, body: string) =>
    [ENTITY.probes, 'code_preview', patientId, body] as const,
  probeCarriers: () => [ENTITY.lookups, 'probe_carriers'] as const,
  /** The postal service's shipping page: a setting, so a save of settings refreshes it. */
  probeOrderLink: () => [ENTITY.settings, 'order_link'] as const,
  /** The study lock (`GET /api/study/lock`, ADR 048): the banner on every screen reads it. */
  studyLock: () => [ENTITY.settings, 'study_lock'] as const,
  /** One settings key (`GET /api/settings/{name}`). */
  setting: (name: string) => [ENTITY.settings, name] as const,
  unit: (id: number) => [ENTITY.units, 'detail', id] as const,
  /** A unit's work-hour rules: every key of one unit starts alike, so a rule change reaches all. */
  calendarUnit: (unitId: number) => [ENTITY.calendar, unitId] as const,
  calendarMonth: (unitId: number, year: number, month: number) =>
    [ENTITY.calendar, unitId, 'count', year, month] as const,
  calendarDay: (unitId: number, date: string) => [ENTITY.calendar, unitId, 'day', date] as const,
  /** The day's booked visits shown beside its rules (ADR 041). */
  calendarDayVisits: (unitId: number, date: string) =>
    [ENTITY.calendar, unitId, 'visits', date] as const,
  /** A panel's documents (doctor or patient). */
  panelDocuments: (panel: string) => [ENTITY.documents, panel] as const,
  /** One kit order with its kits and their tracking histories. */
  probeSet: (id: number) => [ENTITY.probeSets, 'detail', id] as const,
  /** A patient's kit orders (the samples tab and the sample dialog's kit select). */
  patientProbeSets: (patientId: number) => [ENTITY.probeSets, 'patient', patientId] as const,
  /** One visit (its card): under `visits`, so booking, moving or cancelling refreshes it. */
  visit: (id: number | null) => [ENTITY.visits, 'detail', id] as const,
  /** One sample: under `probes`, so creation, reception and results refresh its page. */
  probe: (id: number | null) => [ENTITY.probes, 'detail', id] as const,
  /** A saved sample's answer refreshes every samples list (not the page, set from the answer). */
  probeLists: () => [ENTITY.probes, 'list'] as const,
  /** Samples whose code or patient matches what was typed (the lab's match dialog). */
  probeSearch: (term: string) => [ENTITY.probes, 'lab-picker', term] as const,
  /** What matching an unmatched result to a sample would do (the lab's match dialog). */
  unmatchedPreview: (rowId: number, probeId: number | null) =>
    [ENTITY.labUnmatched, 'preview', rowId, probeId] as const,
  /** One patient's open alerts (the card's banner). */
  patientOpenAlerts: (patientId: number) => [ENTITY.alerts, 'patient', patientId] as const,
  /** The import batches, newest first. */
  importBatches: () => [ENTITY.imports, 'batches'] as const,
  /** The samples drawn with an order's kits: under `probes`, so a new sample refreshes them. */
  probeSetProbes: (id: number) => [ENTITY.probes, 'probe_set', id] as const,
};
