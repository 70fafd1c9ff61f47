import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

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
    role: text('role', { enum: ['admin', 'doctor', 'patient'] }).notNull(),
    /** Null until the user has chosen an own password; the API refuses most calls until then. */
    changed_password_at: timestamp('changed_password_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    // Logins are compared without case: "Jan.Kowalski@x.pl" and "jan.kowalski@x.pl" are one user.
    uniqueIndex('users_login_lower_key').on(sql`lower(${t.login})`),
    check('users_role_check', sql`${t.role} in ('admin', 'doctor', 'patient')`),
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

export const units = pgTable('units', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  street: text('street').notNull(),
  building_nr: text('building_nr').notNull(),
  postcode: text('postcode').notNull(),
  city: text('city').notNull(),
  ...timestamps,
});

export const admins = pgTable(
  'admins',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex('doctors_user_id_key').on(t.user_id),
    index('doctors_unit_id_idx').on(t.unit_id),
    check('doctors_phone_number_check', sql`${t.phone_number} ~ '^[0-9]{9}$'`),
  ],
);

/** Key-value settings of the portal (work hours, probe configuration, integrations). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
