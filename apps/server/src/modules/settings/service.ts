import { eq } from 'drizzle-orm';
import {
  SYNEVO_LAST_ERROR,
  issuesByField,
  labLastError,
  settingValueSchemas,
  settingWithDefaults,
} from '@portal/shared';
import type {
  LabLastError,
  SettingBody,
  SettingValues,
  SynevoView,
  WritableSettingName,
} from '@portal/shared';
import { inTransaction } from '../../db/client.js';
import type { Database, Queryable } from '../../db/client.js';
import { settings } from '../../db/schema.js';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secrets.js';
import { claimSettingVersion, nextVersion } from '../../lib/versions.js';
import type { Actor } from '../../plugins/policy.js';

type Row = typeof settings.$inferSelect;
type Readable = keyof SettingValues;

export interface StoredSetting<N extends Readable = Readable> {
  value: SettingValues[N];
  /** 0 while nothing was saved. */
  version: number;
  /** The laboratory's last error in its structured form (synevo_last_error_message only). */
  error?: LabLastError | null;
}

/** Saving a secret without a key to seal it with (PostgreSQL without PORTAL_SECRET_KEY). */
export const secretKeyMissing = () => new AppError(503, 'secret_key_missing');

const isWritable = (name: string): name is WritableSettingName =>
  Object.hasOwn(settingValueSchemas, name);

async function rowOf(db: Database, name: string): Promise<Row | undefined> {
  const [row] = await db.select().from(settings).where(eq(settings.key, name));
  return row;
}

function present(name: WritableSettingName, row: Row | undefined): SettingValues[typeof name] {
  if (name !== 'synevo') return settingWithDefaults(name, row?.value);
  // The password never leaves the server: only whether one is stored.
  return {
    ...settingWithDefaults('synevo', row?.value),
    password: '',
    password_set: Boolean(row?.secret),
  };
}

/**
 * A setting's value as read (its defaults under the stored value), typed by its name; in a
 * transaction too. The one reader for code that needs a value, not the API's view of it.
 */
export async function readSettingValue<N extends Exclude<WritableSettingName, 'synevo'>>(
  db: Queryable,
  name: N,
): Promise<SettingValues[N]> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, name));
  return settingWithDefaults(name, row?.value) as SettingValues[N];
}

/** A setting's value (its default while never saved) and version; unknown names answer 404. */
export async function readSetting(db: Database, name: string): Promise<StoredSetting> {
  if (name === SYNEVO_LAST_ERROR) {
    const row = await rowOf(db, name);
    const error = lastErrorOf(row?.value);
    return { value: error?.detail ?? null, version: row?.version ?? 0, error };
  }
  if (!isWritable(name)) throw notFound();
  const row = await rowOf(db, name);
  return { value: present(name, row), version: row?.version ?? 0 };
}

/**
 * Checks the value with the key's shared schema and saves it. A stale `version` answers 409
 * `conflict`; none means the save wins. The synevo password is sealed apart from the value; an
 * empty one keeps what is stored.
 */
export async function saveSetting(
  db: Database,
  secrets: SecretBox | null,
  actor: Actor,
  name: string,
  body: SettingBody,
): Promise<StoredSetting> {
  // The last error is written by the laboratory connector, never through the API.
  if (!isWritable(name)) throw notFound();
  const parsed = settingValueSchemas[name].safeParse(body.value);
  if (!parsed.success) {
    const errors = issuesByField(parsed.error.issues);
    throw invalid(
      Object.fromEntries(
        Object.entries(errors).map(([field, codes]) => [
          field === '_' ? 'value' : `value.${field}`,
          codes,
        ]),
      ),
    );
  }
  let value: unknown = parsed.data;
  let secret: string | undefined;
  if (name === 'synevo') {
    const { password, ...rest } = parsed.data as { password: string } & Record<string, unknown>;
    value = rest;
    if (password) {
      if (!secrets) throw secretKeyMissing();
      secret = secrets.encrypt(password);
    } else if (rest.enable_results_import && !(await rowOf(db, name))?.secret) {
      throw invalid({ 'value.password': ['required'] });
    }
  }

  const row = await inTransaction(db, actor.userId, async (tx) => {
    const changes = {
      value,
      ...(secret === undefined ? {} : { secret }),
      updated_by: actor.userId,
      updated_at: new Date(),
    };
    if (body.version === undefined) {
      // A setting's POST may carry the value alone: the save wins (ADR 010).
      const [saved] = await tx
        .insert(settings)
        .values({ key: name, ...changes })
        .onConflictDoUpdate({
          target: settings.key,
          set: { ...changes, version: nextVersion(settings.version) },
        })
        .returning();
      return saved;
    }
    await claimSettingVersion(tx, settings, name, body.version, { set: changes });
    const [saved] = await tx.select().from(settings).where(eq(settings.key, name));
    return saved;
  });
  // Nothing written: someone saved since this client read the setting.
  if (!row) throw conflict('conflict');
  return { value: present(name, row), version: row.version };
}

/** The laboratory connector's view: the stored credentials with the password unsealed. */
export async function readSynevoCredentials(
  db: Database,
  secrets: SecretBox | null,
): Promise<{ login: string; password: string | null; unit_code: string; enabled: boolean }> {
  const row = await rowOf(db, 'synevo');
  const view = present('synevo', row) as SynevoView;
  const password = row?.secret && secrets ? secrets.decrypt(row.secret) : null;
  return {
    login: view.login,
    password,
    unit_code: view.unit_code,
    enabled: view.enable_results_import,
  };
}

/**
 * The stored last error as the API answers it: its code and parameters (ADR 032); one stored
 * before codes existed has only its text, answered as `detail` with no code.
 */
function lastErrorOf(stored: unknown): LabLastError | null {
  const value = (stored ?? {}) as Partial<Record<keyof LabLastError | 'message', unknown>>;
  if (typeof value.message !== 'string') return null;
  const parsed = labLastError.safeParse({ ...value, detail: value.message });
  if (parsed.success) return parsed.data;
  return { code: null, params: {}, detail: value.message, control_id: null, at: null };
}

/**
 * Records (or clears, with null) the laboratory connector's last error for the settings screen:
 * the text its ACK carried (`message`) and, since ADR 032's error codes, the code, the sample and
 * analyte it names, the message's control id and when.
 */
export async function recordSynevoError(
  db: Database,
  error: Omit<LabLastError, 'at'> | null,
): Promise<void> {
  // Wrapped in an object: a bare JSON null would read as SQL NULL in the NOT NULL column.
  const value =
    error === null
      ? { message: null }
      : {
          message: error.detail,
          code: error.code,
          params: error.params,
          control_id: error.control_id,
          at: new Date().toISOString(),
        };
  await db
    .insert(settings)
    .values({ key: SYNEVO_LAST_ERROR, value })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value, version: nextVersion(settings.version), updated_at: new Date() },
    });
}
