/**
 * What the audit trail shows of each audited column (ADR 042). The database records every column
 * its triggers see (ADR 006); this map says how a reader meets each one: hidden (keys, versions,
 * bookkeeping), as a name the server resolves from an id, as a word for a coded value, or as the
 * value itself. The server hides the hidden ones from the list and resolves the names; the web
 * labels every other column in Polish and English. A test compares the map with the migrated
 * database, so a new audited column without an entry here fails it.
 */

/** What wrote a change when no person did, or how a person did it (migration 0024). */
export const AUDIT_SOURCES = [
  'hl7',
  /** The results import. */
  'import',
  'patient_import',
  'flush',
  'restore',
  'tracking',
  'manual_match',
  /** The retention job's anonymisation (ADR 059): its entries keep no old value in clear. */
  'retention',
] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];

/** Ids the server turns into names, one query per page. */
export const AUDIT_REFERENCE_KINDS = [
  'user',
  'doctor',
  'unit',
  'medicine',
  'group',
  'subgroup',
  'exclusion',
  'carrier',
  'probe',
  'visit',
  'kit',
  'patient',
] as const;
export type AuditReferenceKind = (typeof AUDIT_REFERENCE_KINDS)[number];

/** Coded values the web words in the reader's language. */
export const AUDIT_CODED_KINDS = [
  'sex',
  'probe_status',
  'test_type',
  'material',
  'collect_place',
  'results_source',
  'kit_order_status',
  'unmatched_status',
  'unmatched_reason',
  'alert_rule',
] as const;
export type AuditCodedKind = (typeof AUDIT_CODED_KINDS)[number];

/** Structured values (JSON) the web writes out as text. */
export const AUDIT_STRUCTURED_KINDS = [
  'lab_ranges',
  'comparators',
  'lab_comments',
  'alert_details',
] as const;
export type AuditStructuredKind = (typeof AUDIT_STRUCTURED_KINDS)[number];

export type AuditColumnKind =
  | 'hidden'
  /** Shown as stored: text, numbers, booleans, days, instants, rich text. */
  | 'value'
  /** A time of day ("08:30:00"), shown as HH:mm. */
  | 'time'
  | AuditReferenceKind
  | AuditCodedKind
  | AuditStructuredKind;

const H = 'hidden' as const;
const V = 'value' as const;

/** Every audited table and every column its trigger records. */
export const AUDITED_COLUMNS = {
  patients: {
    id: H,
    user_id: H,
    firstname: V,
    surname: V,
    pesel: V,
    sex: 'sex',
    birth_date: V,
    address_street: V,
    address_building: V,
    address_apartment: V,
    address_postcode: V,
    address_city: V,
    phone_number: V,
    email: V,
    weight: V,
    height: V,
    project_number: V,
    is_above_18: V,
    is_classified: V,
    is_finished: V,
    acceptance: V,
    exclusion_criteria_id: 'exclusion',
    doctor_id: 'doctor',
    unit_id: 'unit',
    version: H,
    deleted_at: V,
    import_batch_id: H,
    anonymised_at: V,
  },
  patient_inclusions: {
    patient_id: H,
    group_id: 'group',
    subgroup_id: 'subgroup',
    dose: V,
    interval: V,
  },
  patient_medicines: { id: H, patient_id: H, medicine_id: 'medicine', dose: V },
  patient_additional_medicines: { id: H, patient_id: H, name: V, dose: V },
  notes: {
    id: H,
    ref_type: H,
    ref_id: H,
    patient_id: H,
    content: V,
    author_user_id: 'user',
    version: H,
  },
  files: {
    id: H,
    ref_type: H,
    ref_id: H,
    patient_id: H,
    original_name: V,
    mime_type: V,
    size_bytes: V,
    comment: V,
    uploaded_by: 'user',
  },
  messages: {
    id: H,
    patient_id: H,
    sender_user_id: 'user',
    receiver_user_id: 'user',
    content: V,
    read_at: V,
    version: H,
  },
  /** A locked visit or sample (migration 0027, ADR 048). */
  record_locks: {
    record_type: V,
    record_id: V,
    patient_id: H,
    locked_by: 'user',
    locked_at: V,
  },
  visits: {
    id: H,
    patient_id: H,
    unit_id: 'unit',
    doctor_id: 'doctor',
    date: V,
    started_at: 'time',
    ended_at: 'time',
    is_done: V,
    comment: V,
    qt: V,
    rr: V,
    pq: V,
    qrs: V,
    qtcb: V,
    qtcfra: V,
    out_of_window: V,
    window_reason: V,
    notes: V,
    cancelled_at: V,
    // The one who booked is the entry's author already.
    created_by: H,
    version: H,
  },
  probes: {
    id: H,
    code: V,
    patient_id: H,
    visit_id: 'visit',
    // The sequence inside the code, which is shown.
    probe_number: H,
    status: 'probe_status',
    date_of_sample: V,
    type_of_test: 'test_type',
    type_of_material: 'material',
    collect_place: 'collect_place',
    is_cito: V,
    carrier_id: 'carrier',
    ordered_by_firstname: V,
    ordered_by_surname: V,
    ordered_at: V,
    patient_firstname: V,
    patient_surname: V,
    patient_address_street: V,
    patient_address_building: V,
    patient_address_postcode: V,
    patient_address_city: V,
    laboratory_address: V,
    laboratory_postcode: V,
    laboratory_city: V,
    adverse_events: V,
    alt: V,
    ast: V,
    creatine: V,
    bilirubine: V,
    concentration_hours: V,
    concentration_date_of_analysis: V,
    results_at: V,
    arrived_at: V,
    arrived_by: 'user',
    created_by: H,
    probe_set_kit_id: 'kit',
    // A copy of the kit's status for the list's sort (the kit's own entries record it).
    shipment_status: H,
    results_source: 'results_source',
    lab_ranges: 'lab_ranges',
    result_comparators: 'comparators',
    lab_comments: 'lab_comments',
    legacy_code: H,
    version: H,
  },
  probe_medicines: { id: H, probe_id: H, patient_id: H, medicine_id: 'medicine', concentration: V },
  safety_alerts: {
    id: H,
    patient_id: H,
    rule: 'alert_rule',
    details: 'alert_details',
    probe_id: 'probe',
    visit_id: 'visit',
    acknowledged_at: V,
    acknowledged_by: 'user',
    acknowledge_comment: V,
    version: H,
  },
  probe_sets: {
    id: H,
    patient_id: H,
    amount: V,
    labels_amount: V,
    street: V,
    building: V,
    postcode: V,
    city: V,
    status: 'kit_order_status',
    reason: V,
    decided_at: V,
    decided_by: 'user',
    // The one who ordered is the entry's author already.
    ordered_by: H,
    version: H,
  },
  probe_set_kits: {
    id: H,
    probe_set_id: H,
    patient_id: H,
    kit_number: V,
    tracking_code: V,
    last_status: V,
    last_status_date: V,
    delivered: V,
    last_checked_at: H,
    last_error: V,
    refreshing_until: H,
    version: H,
  },
  unmatched_results: {
    id: H,
    lab_message_id: H,
    import_batch_id: H,
    probe_code: V,
    analyte: V,
    value: V,
    unit: V,
    lab_range: V,
    date_of_analysis: V,
    hours: V,
    patient_sex: 'sex',
    patient_birth_date: V,
    patient_firstname: V,
    patient_surname: V,
    reason: 'unmatched_reason',
    raw: H,
    status: 'unmatched_status',
    probe_id: 'probe',
    patient_id: 'patient',
    resolved_at: V,
    resolved_by: 'user',
    discard_reason: V,
    version: H,
  },
  // Electronic signatures (migration 0028, ADR 050).
  signatures: {
    id: H,
    record_type: V,
    record_id: H,
    patient_id: H,
    signer_id: 'user',
    meaning: V,
    signed_at: V,
    content_hash: V,
    status: V,
    invalidated_at: V,
  },
  // A monitor's verification marks and queries (migration 0028, ADR 051).
  verifications: {
    id: H,
    record_type: V,
    record_id: H,
    patient_id: H,
    verified_by: 'user',
    verified_at: V,
    cleared_at: V,
  },
  queries: {
    id: H,
    record_type: V,
    record_id: H,
    patient_id: H,
    unit_id: 'unit',
    field: V,
    status: V,
    opened_by: 'user',
    version: H,
    closed_at: V,
  },
  query_messages: {
    id: H,
    query_id: H,
    patient_id: H,
    author_id: 'user',
    text: V,
  },
  // The bell's notifications and the e-mails waiting to be sent (migration 0034, ADR 061).
  user_notifications: {
    id: H,
    user_id: 'user',
    event_key: H,
    type: V,
    patient_id: H,
    read_at: V,
  },
  notifications_outbox: {
    id: H,
    event_key: H,
    type: V,
    user_id: 'user',
    channel: V,
    recipient: V,
    language: V,
    patient_id: H,
    status: V,
    last_error: V,
    sent_at: V,
  },
} as const satisfies Record<string, Record<string, AuditColumnKind>>;

export type AuditedEntity = keyof typeof AUDITED_COLUMNS;
export const AUDITED_ENTITIES = Object.keys(AUDITED_COLUMNS) as AuditedEntity[];

export function isAuditedEntity(name: string): name is AuditedEntity {
  return Object.hasOwn(AUDITED_COLUMNS, name);
}

/** How a column of an audited table is shown; 'value' for a column the map does not know. */
export function auditColumnKind(entity: string, column: string): AuditColumnKind {
  if (!isAuditedEntity(entity)) return 'value';
  const columns: Record<string, AuditColumnKind> = AUDITED_COLUMNS[entity];
  return Object.hasOwn(columns, column) ? columns[column]! : 'value';
}

export function isAuditReferenceKind(kind: AuditColumnKind): kind is AuditReferenceKind {
  return (AUDIT_REFERENCE_KINDS as readonly string[]).includes(kind);
}

/** [entity, column] of every column the list leaves out. */
export function hiddenAuditColumns(): [AuditedEntity, string][] {
  return AUDITED_ENTITIES.flatMap((entity) =>
    Object.entries(AUDITED_COLUMNS[entity])
      .filter(([, kind]) => kind === 'hidden')
      .map(([column]): [AuditedEntity, string] => [entity, column]),
  );
}

/**
 * Reasons for change (ADR 048): a write to a record holding entered clinical data names one;
 * `other` needs a text. Written by the database into every audit entry of the write.
 */
export const REASON_CODES = [
  'entry_error',
  'source_correction',
  'query_response',
  'other',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];
export const reasonLabels: Record<'pl' | 'en', Record<ReasonCode, string>> = {
  pl: {
    entry_error: 'Błąd wprowadzania danych',
    source_correction: 'Korekta na podstawie dokumentacji źródłowej',
    query_response: 'Odpowiedź na zapytanie monitora',
    other: 'Inny',
  },
  en: {
    entry_error: 'Data entry error',
    source_correction: 'Correction based on source documents',
    query_response: 'Response to a monitor query',
    other: 'Other',
  },
};
