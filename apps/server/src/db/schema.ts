import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  time,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  AUDIT_SOURCES,
  MONITORED_RECORD_TYPES,
  READ_KINDS,
  REASON_CODES,
  QUERY_STATUSES,
  SIGNATURE_MEANINGS,
  SIGNED_RECORD_TYPES,
} from '@portal/shared';
import type { ResultComparator } from '@portal/shared';

/** Binary file content kept in PostgreSQL, so that one backup holds everything. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Doses and measurements: exact decimals in the database, numbers in the API. */
const decimal = (name: string) => numeric(name, { mode: 'number' });

/** Optimistic locking (ADR 018, migration 0008): bumped by every edit, named by the next one. */
const version = integer('version').notNull().default(1);

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deleted_at: timestamp('deleted_at', { withTimezone: true }),
};

/** Every account that can sign in: administrators, doctors and (later) patients. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    login: text('login').notNull(),
    password_hash: text('password_hash').notNull(),
    role: text('role', { enum: ['admin', 'doctor', 'patient', 'monitor', 'iod'] }).notNull(),
    /** Null until the user has chosen an own password; the API refuses most calls until then. */
    changed_password_at: timestamp('changed_password_at', { withTimezone: true }),
    /**
     * The login with look-alike characters folded (migration 0006, ADR 016), set by a trigger
     * from `login` and unique, so that `ѕecadmin` cannot sit beside `secadmin`.
     */
    login_skeleton: text('login_skeleton'),
    /** The language of the user's e-mails (migration 0034, ADR 062). */
    language: text('language', { enum: ['pl', 'en'] })
      .notNull()
      .default('pl'),
    ...timestamps,
  },
  (t) => [
    // Logins are compared without case: "Jan.Kowalski@x.pl" and "jan.kowalski@x.pl" are one user.
    uniqueIndex('users_login_lower_key').on(sql`lower(${t.login})`),
    uniqueIndex('users_login_skeleton_key').on(t.login_skeleton),
    check('users_role_check', sql`${t.role} in ('admin', 'doctor', 'patient', 'monitor', 'iod')`),
    check('users_language_check', sql`${t.language} in ('pl', 'en')`),
  ],
);

/**
 * One signed-in client. Tokens are random and stored only as SHA-256 digests, so revoking a row
 * ends the session at once and a database dump holds no usable token.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    access_token_hash: text('access_token_hash').notNull(),
    access_expires_at: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    refresh_token_hash: text('refresh_token_hash').notNull(),
    refresh_expires_at: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sessions_access_token_hash_key').on(t.access_token_hash),
    uniqueIndex('sessions_refresh_token_hash_key').on(t.refresh_token_hash),
    index('sessions_user_id_idx').on(t.user_id),
  ],
);

/**
 * Refresh tokens already exchanged, with the session (the family: every token descended from one
 * sign-in) they belonged to. Presenting one again ends that session (ADR 003).
 */
export const usedRefreshTokens = pgTable(
  'used_refresh_tokens',
  {
    token_hash: text('token_hash').primaryKey(),
    session_id: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    used_at: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
    /** The token's own expiry: past it the token is refused anyway, and the row is deleted. */
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('used_refresh_tokens_session_id_idx').on(t.session_id),
    index('used_refresh_tokens_expires_at_idx').on(t.expires_at),
  ],
);

/**
 * Login attempt counters (ADR 016), one row per key: a SHA-256 digest of the login and address,
 * the address, or the login. Kept in the database so that restarts keep them and nodes share them.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    key: text('key').primaryKey(),
    attempts: integer('attempts').notNull(),
    window_ends_at: timestamp('window_ends_at', { withTimezone: true }).notNull(),
    locked_until: timestamp('locked_until', { withTimezone: true }),
    /** When the row means nothing any more; old rows are deleted by it. */
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_throttle_expires_at_idx').on(t.expires_at)],
);

export const units = pgTable('units', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  street: text('street').notNull(),
  building_nr: text('building_nr').notNull(),
  postcode: text('postcode').notNull(),
  city: text('city').notNull(),
  version,
  ...timestamps,
});

/**
 * A unit's work-hour rule (migration 0011, ADR 025): opens (`enabled`) or closes (`disabled`)
 * the hours on its date, or on every date of that ISO weekday when `is_global`.
 */
export const unitCalendarRules = pgTable(
  'unit_calendar_rules',
  {
    id: serial('id').primaryKey(),
    unit_id: integer('unit_id')
      .notNull()
      .references(() => units.id),
    date: date('date', { mode: 'string' }).notNull(),
    started_at: time('started_at').notNull(),
    ended_at: time('ended_at').notNull(),
    type: text('type', { enum: ['enabled', 'disabled'] }).notNull(),
    is_global: boolean('is_global').notNull().default(false),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('unit_calendar_rules_unit_id_date_idx').on(t.unit_id, t.date),
    index('unit_calendar_rules_unit_id_is_global_idx').on(t.unit_id, t.is_global),
    uniqueIndex('unit_calendar_rules_date_key')
      .on(t.unit_id, t.date, t.started_at, t.ended_at, t.type)
      .where(sql`not ${t.is_global}`),
    uniqueIndex('unit_calendar_rules_weekday_key')
      .on(t.unit_id, sql`(extract(isodow from ${t.date}))`, t.started_at, t.ended_at, t.type)
      .where(sql`${t.is_global}`),
    check('unit_calendar_rules_type_check', sql`${t.type} in ('enabled', 'disabled')`),
    check('unit_calendar_rules_ended_at_check', sql`${t.ended_at} >= ${t.started_at}`),
  ],
);

export const admins = pgTable(
  'admins',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    version,
    ...timestamps,
  },
  (t) => [uniqueIndex('admins_user_id_key').on(t.user_id)],
);

export const doctors = pgTable(
  'doctors',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    firstname: text('firstname').notNull(),
    surname: text('surname').notNull(),
    /** Also the doctor's login; uniqueness is kept by users.login. */
    email: text('email').notNull(),
    phone_number: text('phone_number').notNull(),
    unit_id: integer('unit_id')
      .notNull()
      .references(() => units.id),
    version,
    ...timestamps,
  },
  (t) => [
    uniqueIndex('doctors_user_id_key').on(t.user_id),
    index('doctors_unit_id_idx').on(t.unit_id),
    check('doctors_phone_number_check', sql`${t.phone_number} ~ '^[0-9]{9}$'`),
  ],
);

/**
 * Key-value settings of the portal (work hours, probe configuration, integrations), each value
 * checked by its shared zod schema (ADR 010). Secrets live apart from the value, sealed.
 */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  /** The key's secret (the laboratory password) sealed with AES-256-GCM; never sent out. */
  secret: text('secret'),
  /** Optimistic locking: a save names the version it read (ADR 018). */
  version: integer('version').notNull().default(1),
  updated_by: integer('updated_by').references(() => users.id),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------
// Study configuration (ships with the portal; replaceable by a configuration import).

export const inclusionCriteriaGroups = pgTable('inclusion_criteria_groups', {
  id: serial('id').primaryKey(),
  nr: integer('nr').notNull(),
  name: text('name').notNull(),
});

export const inclusionCriteriaSubgroups = pgTable(
  'inclusion_criteria_subgroups',
  {
    id: serial('id').primaryKey(),
    group_id: integer('group_id')
      .notNull()
      .references(() => inclusionCriteriaGroups.id),
    name: text('name').notNull(),
    description: text('description').notNull(),
    /** Comma-separated names of the combination's medicines, as a subgroup answers them. */
    medicines: text('medicines').notNull(),
    doses: decimal('doses').array().notNull(),
    is_fixed_dose: smallint('is_fixed_dose').notNull(),
    allow_custom_interval: smallint('allow_custom_interval').notNull(),
  },
  (t) => [index('inclusion_criteria_subgroups_group_id_idx').on(t.group_id)],
);

export const exclusionCriteria = pgTable('exclusion_criteria', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
});

export const medicines = pgTable('medicines', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  inn: text('inn').notNull(),
  cas: text('cas').notNull(),
  doses: decimal('doses').array().notNull(),
  is_visible: boolean('is_visible').notNull().default(true),
});

// ---------------------------------------------------------------------------------------------
// Patients and everything hanging on them. Every table here is audited by triggers.

export const patients = pgTable(
  'patients',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    firstname: text('firstname').notNull(),
    surname: text('surname').notNull(),
    pesel: text('pesel').notNull(),
    sex: text('sex', { enum: ['M', 'K'] }).notNull(),
    birth_date: date('birth_date', { mode: 'string' }).notNull(),
    address_street: text('address_street'),
    address_building: text('address_building'),
    address_apartment: text('address_apartment'),
    address_postcode: text('address_postcode'),
    address_city: text('address_city'),
    phone_number: text('phone_number').notNull(),
    email: text('email'),
    weight: decimal('weight'),
    height: decimal('height'),
    project_number: text('project_number'),
    is_above_18: boolean('is_above_18').notNull().default(true),
    is_classified: boolean('is_classified').notNull().default(false),
    is_finished: boolean('is_finished').notNull().default(false),
    acceptance: boolean('acceptance').notNull(),
    exclusion_criteria_id: integer('exclusion_criteria_id').references(() => exclusionCriteria.id),
    doctor_id: integer('doctor_id')
      .notNull()
      .references(() => doctors.id),
    unit_id: integer('unit_id')
      .notNull()
      .references(() => units.id),
    version,
    ...timestamps,
    /** The import batch that brought the patient in (migration 0016); null when registered. */
    import_batch_id: integer('import_batch_id').references((): AnyPgColumn => importBatches.id),
    /** When the retention job removed the identity (migration 0032, ADR 059); null while kept. */
    anonymised_at: timestamp('anonymised_at', { withTimezone: true }),
  },
  (t) => [
    // Among active patients only (0026): a flushed import no longer blocks the same PESEL.
    uniqueIndex('patients_pesel_key')
      .on(t.pesel)
      .where(sql`${t.deleted_at} is null`),
    uniqueIndex('patients_user_id_key').on(t.user_id),
    // Migration 0023: one active patient per project number, compared as a sample code carries
    // it (ADR 041).
    uniqueIndex('patients_project_number_key')
      .on(sql`portal_participant_key(${t.project_number})`)
      .where(sql`${t.deleted_at} is null and portal_participant_key(${t.project_number}) <> ''`),
    // One active patient per e-mail (migration 0004).
    uniqueIndex('patients_email_lower_key')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.deleted_at} is null and ${t.email} is not null`),
    index('patients_unit_id_idx').on(t.unit_id),
    index('patients_doctor_id_idx').on(t.doctor_id),
    check('patients_pesel_check', sql`${t.pesel} ~ '^[0-9]{11}$'`),
    check('patients_phone_number_check', sql`${t.phone_number} ~ '^[0-9]{9}$'`),
    check('patients_sex_check', sql`${t.sex} in ('M', 'K')`),
    check('patients_acceptance_check', sql`${t.acceptance}`),
  ],
);

export const patientInclusions = pgTable('patient_inclusions', {
  patient_id: integer('patient_id')
    .primaryKey()
    .references(() => patients.id, { onDelete: 'cascade' }),
  group_id: integer('group_id')
    .notNull()
    .references(() => inclusionCriteriaGroups.id),
  subgroup_id: integer('subgroup_id').references(() => inclusionCriteriaSubgroups.id),
  dose: decimal('dose'),
  interval: text('interval'),
});

/**
 * A patient's stable study subject number in the unit where they were registered (migration
 * 0030, ADR 054): the pseudonymised exports call the patient `S-{unit_id}-{n}`. Filled by a
 * trigger on patients; never updated.
 */
export const studySubjects = pgTable(
  'study_subjects',
  {
    patient_id: integer('patient_id')
      .primaryKey()
      .references(() => patients.id, { onDelete: 'cascade' }),
    unit_id: integer('unit_id')
      .notNull()
      .references(() => units.id),
    n: integer('n').notNull(),
  },
  (t) => [
    unique('study_subjects_unit_n_key').on(t.unit_id, t.n),
    check('study_subjects_n_check', sql`${t.n} > 0`),
  ],
);

export const patientMedicines = pgTable(
  'patient_medicines',
  {
    id: serial('id').primaryKey(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    medicine_id: integer('medicine_id')
      .notNull()
      .references(() => medicines.id),
    dose: decimal('dose'),
  },
  (t) => [uniqueIndex('patient_medicines_patient_medicine_key').on(t.patient_id, t.medicine_id)],
);

export const patientAdditionalMedicines = pgTable(
  'patient_additional_medicines',
  {
    id: serial('id').primaryKey(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    dose: decimal('dose').notNull(),
  },
  (t) => [index('patient_additional_medicines_patient_id_idx').on(t.patient_id)],
);

/** Doctors' comments (rich text, sanitised before storing). */
export const notes = pgTable(
  'notes',
  {
    id: serial('id').primaryKey(),
    ref_type: text('ref_type').notNull(),
    ref_id: integer('ref_id').notNull(),
    patient_id: integer('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    author_user_id: integer('author_user_id')
      .notNull()
      .references(() => users.id),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notes_ref_idx').on(t.ref_type, t.ref_id)],
);

/** Uploaded files: attachments now, ECG files and panel documents later. */
export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    ref_type: text('ref_type').notNull(),
    ref_id: integer('ref_id').notNull(),
    patient_id: integer('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
    original_name: text('original_name').notNull(),
    mime_type: text('mime_type').notNull(),
    size_bytes: integer('size_bytes').notNull(),
    content: bytea('content').notNull(),
    comment: text('comment'),
    uploaded_by: integer('uploaded_by')
      .notNull()
      .references(() => users.id),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('files_ref_idx').on(t.ref_type, t.ref_id)],
);

/** Messages between the patient's doctor (or an administrator) and the patient. */
export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    sender_user_id: integer('sender_user_id')
      .notNull()
      .references(() => users.id),
    receiver_user_id: integer('receiver_user_id')
      .notNull()
      .references(() => users.id),
    content: text('content').notNull(),
    read_at: timestamp('read_at', { withTimezone: true }),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('messages_patient_id_idx').on(t.patient_id)],
);

/**
 * The audit trail, written only by triggers (migration 0002). Rows can be added, never changed
 * or removed: the database refuses UPDATE, DELETE and TRUNCATE.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    user_id: integer('user_id'),
    patient_id: integer('patient_id'),
    entity_name: text('entity_name').notNull(),
    entity_id: text('entity_id'),
    operation: text('operation').notNull(),
    column_name: text('column_name').notNull(),
    old_value: text('old_value'),
    new_value: text('new_value'),
    /** What wrote the change when no person did, or how (migration 0024, ADR 042). */
    source: text('source', { enum: AUDIT_SOURCES }),
    /** The reason for change of the writing transaction (migration 0027, ADR 048). */
    reason_code: text('reason_code', { enum: REASON_CODES }),
    reason_text: text('reason_text'),
    /** sha256 of old_value / new_value: the hash chain covers these, not the values (ADR 049). */
    old_digest: bytea('old_digest'),
    new_digest: bytea('new_digest'),
    /** sha256(previous entry's hash || canonical entry), set by the database (ADR 049). */
    hash: bytea('hash').notNull(),
  },
  (t) => [
    // (key, id): one patient's or user's entries, newest first, as an index range (0010).
    index('audit_entries_patient_id_id_idx').on(t.patient_id, t.id),
    index('audit_entries_user_id_id_idx').on(t.user_id, t.id),
    index('audit_entries_updated_at_idx').on(t.updated_at),
    check(
      'audit_entries_source_check',
      sql`${t.source} in ('hl7', 'import', 'patient_import', 'flush', 'restore', 'tracking', 'manual_match')`,
    ),
    check(
      'audit_entries_reason_code_check',
      sql`${t.reason_code} in ('entry_error', 'source_correction', 'query_response', 'other')`,
    ),
  ],
);

/** The audit hash chain's last link, one row, locked by every new entry (migration 0027). */
export const auditChainHead = pgTable(
  'audit_chain_head',
  {
    id: integer('id').primaryKey().default(1),
    last_id: bigint('last_id', { mode: 'number' }),
    last_hash: bytea('last_hash').notNull(),
  },
  (t) => [check('audit_chain_head_id_check', sql`${t.id} = 1`)],
);

/** A locked visit or sample: no change at all until unlocked (migration 0027, ADR 048). */
export const recordLocks = pgTable(
  'record_locks',
  {
    record_type: text('record_type', { enum: ['visit', 'probe'] }).notNull(),
    record_id: integer('record_id').notNull(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    locked_by: integer('locked_by').references(() => users.id),
    locked_at: timestamp('locked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.record_type, t.record_id] }),
    check('record_locks_record_type_check', sql`${t.record_type} in ('visit', 'probe')`),
  ],
);

/**
 * The read-access log (migration 0029, ADR 052): one entry per request that showed identified
 * patient data. Append-only: the app role cannot change or remove a row, and a trigger refuses it.
 */
export const accessLog = pgTable(
  'access_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    address: text('address').notNull(),
    kind: text('kind', { enum: READ_KINDS }).notNull(),
    patient_ids: integer('patient_ids').array().notNull(),
  },
  (t) => [
    index('access_log_user_id_id_idx').on(t.user_id, t.id),
    index('access_log_patient_ids_idx').using('gin', t.patient_ids),
    index('access_log_at_idx').on(t.at),
    check(
      'access_log_kind_check',
      sql`${t.kind} in ('patient_card', 'patient_tab', 'visit', 'probe', 'credentials', 'file', 'report', 'export', 'search', 'identity', 'audit')`,
    ),
    check('access_log_patients_check', sql`cardinality(${t.patient_ids}) > 0`),
  ],
);

/**
 * A visit of a patient in the patient's unit, on one slot of the grid (migration 0012, ADR 026).
 * Cancelled visits keep their row with `cancelled_at`; every query of live visits excludes them.
 */
export const visits = pgTable(
  'visits',
  {
    id: serial('id').primaryKey(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    unit_id: integer('unit_id')
      .notNull()
      .references(() => units.id),
    doctor_id: integer('doctor_id').references(() => doctors.id),
    date: date('date', { mode: 'string' }).notNull(),
    started_at: time('started_at').notNull(),
    ended_at: time('ended_at').notNull(),
    is_done: boolean('is_done').notNull().default(false),
    comment: text('comment'),
    qt: integer('qt'),
    rr: integer('rr'),
    pq: integer('pq'),
    qrs: integer('qrs'),
    qtcb: integer('qtcb'),
    qtcfra: integer('qtcfra'),
    out_of_window: boolean('out_of_window').notNull().default(false),
    window_reason: text('window_reason'),
    /** Rich text (sanitised HTML) kept with the visit (migration 0020, ADR 038). */
    notes: text('notes'),
    cancelled_at: timestamp('cancelled_at', { withTimezone: true }),
    created_by: integer('created_by').references(() => users.id),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('visits_unit_slot_key')
      .on(t.unit_id, t.date, t.started_at)
      .where(sql`${t.cancelled_at} is null`),
    uniqueIndex('visits_patient_slot_key')
      .on(t.patient_id, t.date, t.started_at)
      .where(sql`${t.cancelled_at} is null`),
    index('visits_patient_id_date_idx').on(t.patient_id, t.date, t.started_at),
    index('visits_doctor_id_idx').on(t.doctor_id),
    // GET /api/visits without a date (migration 0020): every unit's and one doctor's live visits.
    index('visits_live_date_idx')
      .on(t.date, t.started_at, t.id)
      .where(sql`${t.cancelled_at} is null`),
    index('visits_live_doctor_date_idx')
      .on(t.doctor_id, t.date, t.started_at, t.id)
      .where(sql`${t.cancelled_at} is null`),
    check('visits_ended_at_check', sql`${t.ended_at} > ${t.started_at}`),
    check('visits_notes_length_check', sql`char_length(${t.notes}) <= 100000`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Samples (issue 10, migration 0013, ADR 030). Probes, their medicines and safety alerts are
// patient data: audited by triggers.

/** What a sample is carried in (a tube, a dried-blood card). */
export const carriers = pgTable(
  'carriers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique('carriers_name_key'),
    is_visible: boolean('is_visible').notNull().default(true),
    /** The materials the carrier takes (migration 0023, ADR 041). */
    materials: text('materials', { enum: ['venous', 'capillary'] })
      .array()
      .notNull()
      .default(sql`'{venous,capillary}'`),
  },
  (t) => [
    check(
      'carriers_materials_check',
      sql`cardinality(${t.materials}) > 0 and ${t.materials} <@ array['venous', 'capillary']::text[]`,
    ),
  ],
);

export const PROBE_STATUSES = ['collected', 'sent', 'received'] as const;

export const probes = pgTable(
  'probes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    visit_id: integer('visit_id').references(() => visits.id),
    /** The patient's n-th sample, unique per patient (the "next probe number" of the code). */
    probe_number: integer('probe_number').notNull(),
    status: text('status', { enum: PROBE_STATUSES }).notNull().default('collected'),
    date_of_sample: date('date_of_sample', { mode: 'string' }).notNull(),
    type_of_test: text('type_of_test', { enum: ['biochemistry', 'drug_concentration'] })
      .notNull()
      .default('biochemistry'),
    type_of_material: text('type_of_material', { enum: ['venous', 'capillary'] })
      .notNull()
      .default('venous'),
    collect_place: text('collect_place', { enum: ['clinic', 'home'] })
      .notNull()
      .default('clinic'),
    is_cito: boolean('is_cito').notNull().default(true),
    carrier_id: integer('carrier_id')
      .notNull()
      .references(() => carriers.id),
    ordered_by_firstname: text('ordered_by_firstname').notNull(),
    ordered_by_surname: text('ordered_by_surname').notNull(),
    ordered_at: date('ordered_at', { mode: 'string' }).notNull(),
    patient_firstname: text('patient_firstname').notNull(),
    patient_surname: text('patient_surname').notNull(),
    patient_address_street: text('patient_address_street').notNull(),
    patient_address_building: text('patient_address_building').notNull(),
    patient_address_postcode: text('patient_address_postcode').notNull(),
    patient_address_city: text('patient_address_city').notNull(),
    laboratory_address: text('laboratory_address'),
    laboratory_postcode: text('laboratory_postcode'),
    laboratory_city: text('laboratory_city'),
    adverse_events: text('adverse_events'),
    alt: decimal('alt'),
    ast: decimal('ast'),
    creatine: decimal('creatine'),
    bilirubine: decimal('bilirubine'),
    concentration_hours: decimal('concentration_hours'),
    concentration_date_of_analysis: date('concentration_date_of_analysis', { mode: 'string' }),
    results_at: timestamp('results_at', { withTimezone: true }),
    arrived_at: timestamp('arrived_at', { withTimezone: true }),
    arrived_by: integer('arrived_by').references(() => users.id),
    created_by: integer('created_by').references(() => users.id),
    /** The kit of a home-sampling order the sample was drawn with (migration 0015). */
    probe_set_kit_id: integer('probe_set_kit_id').references((): AnyPgColumn => probeSetKits.id),
    /**
     * The kit's shipment status, copied by triggers for the list's sort (migration 0022, ADR
     * 039); null without a kit or a waybill. Never written by the app.
     */
    shipment_status: text('shipment_status'),
    /** Where the results came from (migration 0016). */
    results_source: text('results_source', { enum: ['hand', 'hl7', 'import'] }),
    /** The laboratory's own ranges, preferred for the flags: {analyte: {text, min, max, unit}}. */
    lab_ranges: jsonb('lab_ranges').$type<Record<string, LabRange>>(),
    /** How the laboratory qualified a result ({analyte: {comparator, upper}}; migration 0019). */
    result_comparators: jsonb('result_comparators').$type<Record<string, ResultComparator>>(),
    /** The laboratory's comments ({sample, results: {analyte: text}}; migration 0019). */
    lab_comments: jsonb('lab_comments').$type<LabComments>(),
    /**
     * True on a sample whose code predates barcode-safe codes (migration 0021, ADR 035) and
     * breaks the rule; null on every other. Only that migration sets it.
     */
    legacy_code: boolean('legacy_code'),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('probes_code_key').on(t.code),
    // Migration 0021: one code whatever the case; ASCII letters, digits, "-", 1–32 (ADR 035).
    uniqueIndex('probes_code_lower_key')
      .on(sql`lower(${t.code})`)
      .where(sql`${t.legacy_code} is null`),
    check(
      'probes_code_safe_check',
      sql`${t.legacy_code} is true or ${t.code} ~ '^[A-Za-z0-9-]{1,32}$'`,
    ),
    check('probes_legacy_code_check', sql`${t.legacy_code}`),
    index('probes_code_loose_idx').on(
      sql`lower(regexp_replace(portal_unaccent(${t.code}), '[^A-Za-z0-9-]+', '', 'g'))`,
    ),
    uniqueIndex('probes_patient_number_key').on(t.patient_id, t.probe_number),
    index('probes_created_at_id_idx').on(t.created_at, t.id),
    index('probes_patient_id_created_at_idx').on(t.patient_id, t.created_at),
    // The list's sorts (migration 0014; its trigram and prefix search indexes are SQL only).
    index('probes_patient_name_id_idx').on(t.patient_surname, t.patient_firstname, t.id),
    index('probes_type_of_material_id_idx').on(t.type_of_material, t.id),
    index('probes_status_id_idx').on(t.status, t.id),
    index('probes_shipment_status_id_idx').on(t.shipment_status, t.id),
  ],
);

/** The medicines a sample is tested for, with the measured concentration (ng/ml) once known. */
export const probeMedicines = pgTable(
  'probe_medicines',
  {
    id: serial('id').primaryKey(),
    probe_id: integer('probe_id')
      .notNull()
      .references(() => probes.id, { onDelete: 'cascade' }),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    medicine_id: integer('medicine_id')
      .notNull()
      .references(() => medicines.id),
    concentration: decimal('concentration'),
  },
  (t) => [uniqueIndex('probe_medicines_probe_medicine_key').on(t.probe_id, t.medicine_id)],
);

/** Reference ranges, seeded from data/reference-ranges.json; `below` is a "<" limit. */
export const referenceRanges = pgTable(
  'reference_ranges',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['biochemistry', 'drug', 'ecg'] }).notNull(),
    /** `alt`, `ast`, `creatine`, `bilirubine`, an ECG parameter, or a drug's INN. */
    analyte: text('analyte').notNull(),
    unit: text('unit').notNull(),
    /** Null: both sexes. */
    sex: text('sex', { enum: ['M', 'K'] }),
    min: decimal('min'),
    max: decimal('max'),
    below: decimal('below'),
  },
  (t) => [
    uniqueIndex('reference_ranges_analyte_sex_key').on(
      t.kind,
      t.analyte,
      sql`coalesce(${t.sex}, '')`,
    ),
  ],
);

/**
 * The safety rules of docs/product-rules.md "Safety alerts" with their numbers (`params`),
 * switchable per study.
 */
export const safetyRules = pgTable('safety_rules', {
  id: text('id').primaryKey(),
  meaning: text('meaning').notNull(),
  params: jsonb('params').$type<Record<string, number>>().notNull(),
  is_enabled: boolean('is_enabled').notNull().default(true),
});

export const safetyAlerts = pgTable(
  'safety_alerts',
  {
    id: serial('id').primaryKey(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    rule: text('rule')
      .notNull()
      .references(() => safetyRules.id),
    details: jsonb('details').$type<Record<string, number>>().notNull(),
    probe_id: integer('probe_id').references(() => probes.id),
    visit_id: integer('visit_id').references(() => visits.id),
    acknowledged_at: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledged_by: integer('acknowledged_by').references(() => users.id),
    acknowledge_comment: text('acknowledge_comment'),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('safety_alerts_patient_id_idx').on(t.patient_id, t.created_at),
    // One open alert per rule and sample, and per rule and visit (migration 0013).
    uniqueIndex('safety_alerts_open_probe_key')
      .on(t.rule, t.probe_id)
      .where(sql`${t.acknowledged_at} is null and ${t.probe_id} is not null`),
    uniqueIndex('safety_alerts_open_visit_key')
      .on(t.rule, t.visit_id)
      .where(sql`${t.acknowledged_at} is null and ${t.visit_id} is not null`),
  ],
);

/**
 * Kit-order statuses (docs/product-rules.md "Records and their states"): 0 registered, 1 accepted,
 * 2 rejected.
 */
export const PROBE_SET_STATUSES = [0, 1, 2] as const;

/** An order of home-sampling kits for a patient (migration 0015, ADR 031). */
export const probeSets = pgTable(
  'probe_sets',
  {
    id: serial('id').primaryKey(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    amount: integer('amount').notNull(),
    labels_amount: integer('labels_amount').notNull().default(1),
    street: text('street').notNull(),
    building: text('building').notNull(),
    postcode: text('postcode').notNull(),
    city: text('city').notNull(),
    status: smallint('status').notNull().default(0),
    reason: text('reason'),
    decided_at: timestamp('decided_at', { withTimezone: true }),
    decided_by: integer('decided_by').references(() => users.id),
    ordered_by: integer('ordered_by').references(() => users.id),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('probe_sets_created_at_id_idx').on(t.created_at, t.id),
    index('probe_sets_patient_id_id_idx').on(t.patient_id, t.id),
  ],
);

/** One kit of an order, sent under its own waybill; made with the order. */
export const probeSetKits = pgTable(
  'probe_set_kits',
  {
    id: serial('id').primaryKey(),
    probe_set_id: integer('probe_set_id')
      .notNull()
      .references(() => probeSets.id, { onDelete: 'cascade' }),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    kit_number: integer('kit_number').notNull(),
    /** Upper-case letters and digits, 4–40 (a database CHECK). */
    tracking_code: text('tracking_code'),
    last_status: text('last_status'),
    last_status_date: timestamp('last_status_date', { withTimezone: true }),
    delivered: boolean('delivered').notNull().default(false),
    last_checked_at: timestamp('last_checked_at', { withTimezone: true }),
    last_error: text('last_error'),
    /** A running refresh holds the kit until then (ADR 031). */
    refreshing_until: timestamp('refreshing_until', { withTimezone: true }),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('probe_set_kits_number_key').on(t.probe_set_id, t.kit_number)],
);

/** The tracking history the provider reported for a kit. */
export const shipmentEvents = pgTable(
  'shipment_events',
  {
    id: serial('id').primaryKey(),
    kit_id: integer('kit_id')
      .notNull()
      .references(() => probeSetKits.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    occurred_at: timestamp('occurred_at', { withTimezone: true }).notNull(),
    place: text('place'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('shipment_events_key').on(t.kit_id, t.occurred_at, t.status)],
);

/** Announcements to every patient; the sender is a doctor or an administrator. */
export const globalMessages = pgTable(
  'global_messages',
  {
    id: serial('id').primaryKey(),
    content: text('content').notNull(),
    sender_user_id: integer('sender_user_id')
      .notNull()
      .references(() => users.id),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('global_messages_created_at_id_idx').on(t.created_at, t.id)],
);

/** Who has read an announcement (its "Przeczytane przez: N"). */
export const globalMessageReads = pgTable(
  'global_message_reads',
  {
    message_id: integer('message_id')
      .notNull()
      .references(() => globalMessages.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    read_at: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.message_id, t.user_id] })],
);

/** The laboratory's comments on a sample (HL7 NTE and text OBX; ADR 033). */
export interface LabComments {
  sample: string | null;
  results: Record<string, string>;
}

/** A reference range as the laboratory sent it with a result (HL7 OBX-7 or an import column). */
export interface LabRange {
  text: string;
  min: number | null;
  max: number | null;
  unit: string | null;
}

/** Every HL7 message the laboratory delivered (migration 0016, ADR 032). */
export const labMessages = pgTable(
  'lab_messages',
  {
    id: serial('id').primaryKey(),
    control_id: text('control_id').notNull(),
    sending_facility: text('sending_facility'),
    status: text('status', { enum: ['accepted', 'rejected'] }).notNull(),
    error: text('error'),
    /** A rejected message's reason as a code and its parameters (migration 0025, ADR 032). */
    error_code: text('error_code'),
    error_params: jsonb('error_params').$type<Record<string, string>>(),
    /** Every sample a rejected message named: their pages say their results were refused. */
    probe_codes: text('probe_codes').array(),
    results_count: integer('results_count').notNull().default(0),
    raw: text('raw').notNull(),
    received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('lab_messages_received_at_idx').on(t.received_at, t.id),
    index('lab_messages_refused_probe_codes_idx')
      .using('gin', t.probe_codes)
      .where(sql`${t.status} = 'rejected'`),
    // A message is accepted once: its control id again is a repeat (migration 0016).
    uniqueIndex('lab_messages_accepted_control_id_key')
      .on(t.control_id)
      .where(sql`${t.status} = 'accepted'`),
  ],
);

export const IMPORT_BATCH_MODES = ['patient_data', 'results'] as const;

/** One upload of the data import; a flush soft-deletes what it wrote (undoable). */
export const importBatches = pgTable('import_batches', {
  id: serial('id').primaryKey(),
  mode: text('mode', { enum: IMPORT_BATCH_MODES }).notNull(),
  files: jsonb('files').$type<{ name: string; size: number }[]>().notNull(),
  counts: jsonb('counts').$type<Record<string, number>>().notNull(),
  created_by: integer('created_by').references(() => users.id),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  flushed_at: timestamp('flushed_at', { withTimezone: true }),
  flushed_by: integer('flushed_by').references(() => users.id),
});

export const UNMATCHED_REASONS = [
  'no_probe',
  'sex_mismatch',
  'birth_date_mismatch',
  'unknown_analyte',
] as const;
export const UNMATCHED_STATUSES = ['open', 'matched', 'discarded'] as const;

/** Results that could not be attached to a sample, waiting to be matched or discarded. */
export const unmatchedResults = pgTable(
  'unmatched_results',
  {
    id: serial('id').primaryKey(),
    lab_message_id: integer('lab_message_id').references(() => labMessages.id),
    import_batch_id: integer('import_batch_id').references(() => importBatches.id),
    probe_code: text('probe_code').notNull(),
    analyte: text('analyte').notNull(),
    value: decimal('value'),
    unit: text('unit'),
    lab_range: text('lab_range'),
    date_of_analysis: date('date_of_analysis', { mode: 'string' }),
    hours: decimal('hours'),
    patient_sex: text('patient_sex'),
    patient_birth_date: date('patient_birth_date', { mode: 'string' }),
    /** PID-5 as sent (migration 0025). */
    patient_firstname: text('patient_firstname'),
    patient_surname: text('patient_surname'),
    reason: text('reason', { enum: UNMATCHED_REASONS }).notNull(),
    raw: jsonb('raw').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: UNMATCHED_STATUSES }).notNull().default('open'),
    probe_id: integer('probe_id').references(() => probes.id),
    patient_id: integer('patient_id').references(() => patients.id),
    resolved_at: timestamp('resolved_at', { withTimezone: true }),
    resolved_by: integer('resolved_by').references(() => users.id),
    discard_reason: text('discard_reason'),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('unmatched_results_open_idx')
      .on(t.created_at, t.id)
      .where(sql`${t.status} = 'open'`),
    index('unmatched_results_open_code_idx')
      .on(t.probe_code)
      .where(sql`${t.status} = 'open'`),
  ],
);

/**
 * What a results import wrote on a sample and the value it replaced (migration 0017), so that a
 * flush puts the old value back and a restore writes the imported one again.
 */
export const importResultValues = pgTable('import_result_values', {
  id: serial('id').primaryKey(),
  import_batch_id: integer('import_batch_id')
    .notNull()
    .references(() => importBatches.id),
  probe_id: integer('probe_id')
    .notNull()
    .references(() => probes.id),
  analyte: text('analyte').notNull(),
  value: decimal('value').notNull(),
  previous_value: decimal('previous_value'),
});

/**
 * What a results import changed on a sample besides the values (migration 0018): its state
 * before the batch (`previous_*`, put back by a flush) and as the batch left it (written again
 * by a restore). One row per sample and batch.
 */
export const importProbeStates = pgTable(
  'import_probe_states',
  {
    id: serial('id').primaryKey(),
    import_batch_id: integer('import_batch_id')
      .notNull()
      .references(() => importBatches.id),
    probe_id: integer('probe_id')
      .notNull()
      .references(() => probes.id),
    previous_concentration_hours: decimal('previous_concentration_hours'),
    previous_concentration_date_of_analysis: date('previous_concentration_date_of_analysis', {
      mode: 'string',
    }),
    previous_results_source: text('previous_results_source', { enum: ['hand', 'hl7', 'import'] }),
    previous_lab_ranges: jsonb('previous_lab_ranges').$type<Record<string, LabRange>>(),
    previous_results_at: timestamp('previous_results_at', { withTimezone: true }),
    previous_status: text('previous_status', { enum: PROBE_STATUSES }).notNull(),
    concentration_hours: decimal('concentration_hours'),
    concentration_date_of_analysis: date('concentration_date_of_analysis', { mode: 'string' }),
    results_source: text('results_source', { enum: ['hand', 'hl7', 'import'] }),
    lab_ranges: jsonb('lab_ranges').$type<Record<string, LabRange>>(),
    results_at: timestamp('results_at', { withTimezone: true }),
    status: text('status', { enum: PROBE_STATUSES }).notNull(),
  },
  (t) => [uniqueIndex('import_probe_states_batch_probe_key').on(t.import_batch_id, t.probe_id)],
);

/** Runs of the retention job, with their progress (migration 0032, ADR 059): no patient data. */
export const retentionRuns = pgTable(
  'retention_runs',
  {
    id: serial('id').primaryKey(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    years: integer('years').notNull(),
    requested_by: integer('requested_by').references(() => users.id),
    requested_at: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    started_at: timestamp('started_at', { withTimezone: true }),
    finished_at: timestamp('finished_at', { withTimezone: true }),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('retention_runs_one_active_key')
      .on(sql`(true)`)
      .where(sql`${t.status} in ('queued', 'running')`),
    check(
      'retention_runs_status_check',
      sql`${t.status} in ('queued', 'running', 'done', 'failed')`,
    ),
    check('retention_runs_years_check', sql`${t.years} >= 1`),
    check('retention_runs_progress_check', sql`${t.done} >= 0 and ${t.done} <= ${t.total}`),
  ],
);

/**
 * The study dashboard's counters (migration 0033, ADR 060): per unit, metric and key, kept in step
 * by triggers on patients, inclusions, visits, samples and safety alerts. Never written by the app.
 */
export const dashboardCounts = pgTable(
  'dashboard_counts',
  {
    unit_id: integer('unit_id').notNull(),
    metric: text('metric').notNull(),
    key: text('key').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'dashboard_counts_pkey', columns: [t.unit_id, t.metric, t.key] })],
);

/** The kinds of event a user is told about (ADR 062). */
export const NOTIFICATION_TYPES = [
  'safety_alert',
  'kit_order',
  'visit_reminder',
  'unmatched_result',
  'query_opened',
] as const;

/** A user's e-mail choices (ADR 062); no row: every e-mail, to the account's own address. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    user_id: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    email_address: text('email_address'),
    email_off: text('email_off', { enum: NOTIFICATION_TYPES })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    version,
    created_at: timestamps.created_at,
    updated_at: timestamps.updated_at,
  },
  (t) => [
    check(
      'notification_preferences_email_off_check',
      sql`${t.email_off} <@ ARRAY['safety_alert', 'kit_order', 'visit_reminder', 'unmatched_result', 'query_opened']::text[]`,
    ),
    check(
      'notification_preferences_email_address_check',
      sql`${t.email_address} IS NULL OR ${t.email_address} ~ '^[^@\\s]+@[^@\\s]+$'`,
    ),
  ],
);

/** The bell's notifications, one per event and user (ADR 062). */
export const userNotifications = pgTable(
  'user_notifications',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    event_key: text('event_key').notNull(),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    params: jsonb('params').$type<Record<string, string | number | null>>().notNull().default({}),
    patient_id: integer('patient_id').references(() => patients.id),
    read_at: timestamp('read_at', { withTimezone: true }),
    created_at: timestamps.created_at,
  },
  (t) => [
    uniqueIndex('user_notifications_event_user_key').on(t.event_key, t.user_id),
    index('user_notifications_user_idx').on(t.user_id, t.id),
    index('user_notifications_unread_idx')
      .on(t.user_id)
      .where(sql`${t.read_at} IS NULL`),
    check(
      'user_notifications_type_check',
      sql`${t.type} IN ('safety_alert', 'kit_order', 'visit_reminder', 'unmatched_result', 'query_opened')`,
    ),
  ],
);

export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;

/** E-mails waiting for, going through or done with delivery by the job queue (ADR 061). */
export const notificationsOutbox = pgTable(
  'notifications_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    event_key: text('event_key').notNull(),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    channel: text('channel', { enum: ['email'] })
      .notNull()
      .default('email'),
    recipient: text('recipient').notNull(),
    language: text('language', { enum: ['pl', 'en'] }).notNull(),
    patient_id: integer('patient_id').references(() => patients.id),
    payload: jsonb('payload').$type<Record<string, string | number | null>>().notNull().default({}),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    locked_until: timestamp('locked_until', { withTimezone: true }),
    last_error: text('last_error'),
    message_id: text('message_id').notNull(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    created_at: timestamps.created_at,
    updated_at: timestamps.updated_at,
  },
  (t) => [
    uniqueIndex('notifications_outbox_event_key').on(t.event_key, t.user_id, t.channel),
    index('notifications_outbox_due_idx')
      .on(t.next_attempt_at)
      .where(sql`${t.status} IN ('pending', 'sending')`),
    index('notifications_outbox_failed_idx')
      .on(t.id)
      .where(sql`${t.status} = 'failed'`),
    check('notifications_outbox_channel_check', sql`${t.channel} IN ('email')`),
    check(
      'notifications_outbox_status_check',
      sql`${t.status} IN ('pending', 'sending', 'sent', 'failed')`,
    ),
    check('notifications_outbox_language_check', sql`${t.language} IN ('pl', 'en')`),
    check('notifications_outbox_attempts_check', sql`${t.attempts} >= 0`),
    check(
      'notifications_outbox_sending_check',
      sql`(${t.status} = 'sending') = (${t.locked_until} IS NOT NULL)`,
    ),
    check(
      'notifications_outbox_sent_check',
      sql`(${t.status} = 'sent') = (${t.sent_at} IS NOT NULL)`,
    ),
  ],
);

/** A monitor (CRA) account's record (migration 0028, ADR 051): login = e-mail, like a doctor. */
export const monitors = pgTable(
  'monitors',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    firstname: text('firstname').notNull(),
    surname: text('surname').notNull(),
    email: text('email').notNull(),
    phone_number: text('phone_number').notNull(),
    version,
    ...timestamps,
  },
  (t) => [
    uniqueIndex('monitors_user_id_key').on(t.user_id),
    check('monitors_phone_number_check', sql`${t.phone_number} ~ '^[0-9]{9}$'`),
  ],
);

/** The units a monitor reaches (ADR 051). */
export const monitorUnits = pgTable(
  'monitor_units',
  {
    monitor_id: integer('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    unit_id: integer('unit_id')
      .notNull()
      .references(() => units.id),
  },
  (t) => [
    primaryKey({ name: 'monitor_units_pkey', columns: [t.monitor_id, t.unit_id] }),
    index('monitor_units_unit_id_idx').on(t.unit_id),
  ],
);

/**
 * Electronic signatures (migration 0028, ADR 050). The trigger record_content_changed marks a
 * valid one invalidated when the signed content changes; rows are never deleted.
 */
export const signatures = pgTable(
  'signatures',
  {
    id: serial('id').primaryKey(),
    record_type: text('record_type', { enum: SIGNED_RECORD_TYPES }).notNull(),
    record_id: integer('record_id').notNull(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    signer_id: integer('signer_id')
      .notNull()
      .references(() => users.id),
    meaning: text('meaning', { enum: SIGNATURE_MEANINGS }).notNull(),
    signed_at: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
    content_hash: text('content_hash').notNull(),
    status: text('status', { enum: ['valid', 'invalidated'] })
      .notNull()
      .default('valid'),
    invalidated_at: timestamp('invalidated_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('signatures_valid_key')
      .on(t.record_type, t.record_id, t.signer_id, t.meaning)
      .where(sql`${t.status} = 'valid'`),
    index('signatures_record_idx').on(t.record_type, t.record_id, t.id),
    check('signatures_record_type_check', sql`${t.record_type} in ('visit', 'probe')`),
    check('signatures_meaning_check', sql`${t.meaning} in ('author', 'approve', 'review')`),
    check('signatures_status_check', sql`${t.status} in ('valid', 'invalidated')`),
    check(
      'signatures_invalidated_check',
      sql`(${t.status} = 'invalidated') = (${t.invalidated_at} IS NOT NULL)`,
    ),
    check('signatures_content_hash_check', sql`${t.content_hash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** Source data verification marks (migration 0028, ADR 051); a change sets cleared_at. */
export const verifications = pgTable(
  'verifications',
  {
    id: serial('id').primaryKey(),
    record_type: text('record_type', { enum: MONITORED_RECORD_TYPES }).notNull(),
    record_id: integer('record_id').notNull(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    verified_by: integer('verified_by')
      .notNull()
      .references(() => users.id),
    verified_at: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
    cleared_at: timestamp('cleared_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('verifications_current_key')
      .on(t.record_type, t.record_id)
      .where(sql`${t.cleared_at} is null`),
    index('verifications_record_idx').on(t.record_type, t.record_id, t.id),
    check(
      'verifications_record_type_check',
      sql`${t.record_type} in ('patient', 'visit', 'probe')`,
    ),
  ],
);

/** A monitor's query on a record or one field (migration 0028, ADR 051). */
export const queries = pgTable(
  'queries',
  {
    id: serial('id').primaryKey(),
    record_type: text('record_type', { enum: MONITORED_RECORD_TYPES }).notNull(),
    record_id: integer('record_id').notNull(),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    unit_id: integer('unit_id')
      .notNull()
      .references(() => units.id),
    field: text('field'),
    status: text('status', { enum: QUERY_STATUSES }).notNull().default('open'),
    opened_by: integer('opened_by')
      .notNull()
      .references(() => users.id),
    version,
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    closed_at: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    index('queries_unit_status_idx').on(t.unit_id, t.status, t.id),
    index('queries_status_idx').on(t.status, t.id),
    index('queries_record_idx').on(t.record_type, t.record_id, t.id),
    index('queries_patient_idx').on(t.patient_id, t.status),
    check('queries_record_type_check', sql`${t.record_type} in ('patient', 'visit', 'probe')`),
    check('queries_status_check', sql`${t.status} in ('open', 'answered', 'closed')`),
    check('queries_closed_check', sql`(${t.status} = 'closed') = (${t.closed_at} IS NOT NULL)`),
    check('queries_field_check', sql`${t.field} ~ '^[a-z_]{1,64}$'`),
  ],
);

export const queryMessages = pgTable(
  'query_messages',
  {
    id: serial('id').primaryKey(),
    query_id: integer('query_id')
      .notNull()
      .references(() => queries.id, { onDelete: 'cascade' }),
    patient_id: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    author_id: integer('author_id')
      .notNull()
      .references(() => users.id),
    text: text('text').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('query_messages_query_idx').on(t.query_id, t.id),
    check('query_messages_text_check', sql`length(btrim(${t.text})) BETWEEN 1 AND 5000`),
  ],
);
