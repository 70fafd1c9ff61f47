-- Trial-grade records (ADR 048 reasons and locks, ADR 049 the audit hash chain).
--
-- 1. Reason for change: the writing transaction names it like the actor, transaction-local
--    (set_config('app.reason_code' / 'app.reason_text', …, true); markAuditReason in
--    db/client.ts), and the database copies it into every entry of that transaction.
-- 2. Hash chain: every entry stores hash = sha256(previous hash || canonical entry), computed by
--    a BEFORE INSERT trigger while it holds the one-row chain head FOR UPDATE, so entries are
--    chained in the order their transactions take the head, and their ids are drawn under the
--    same lock (ids follow the chain, and the previous link is the newest entry). The canonical entry holds sha256 digests of old_value and
--    new_value, not the values, so a later redaction of a value keeps the chain verifiable.
-- 3. Record locks: a locked visit or sample refuses every change in the database itself.
ALTER TABLE "audit_entries" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "reason_text" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "old_digest" bytea;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "new_digest" bytea;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "hash" bytea;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_reason_code_check"
  CHECK ("reason_code" in ('entry_error', 'source_correction', 'query_response', 'other'));--> statement-breakpoint
CREATE TABLE "audit_chain_head" (
  "id" integer PRIMARY KEY DEFAULT 1 CHECK ("id" = 1),
  "last_id" bigint,
  "last_hash" bytea NOT NULL
);--> statement-breakpoint
-- The canonical form of an entry (chain version 1). Every field is quoted or NULL, so no two
-- entries share a form; the instant is written in UTC to the microsecond, whatever TimeZone the
-- session has. The verifier (audit/chain.ts) calls the same function.
CREATE FUNCTION audit_entry_hash(prev bytea, e audit_entries) RETURNS bytea
  LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT sha256(prev || convert_to(concat_ws('|',
    e.id::text,
    to_char(e.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    quote_nullable(e.user_id),
    quote_nullable(e.patient_id),
    quote_nullable(e.entity_name),
    quote_nullable(e.entity_id),
    quote_nullable(e.operation),
    quote_nullable(e.column_name),
    quote_nullable(encode(e.old_digest, 'hex')),
    quote_nullable(encode(e.new_digest, 'hex')),
    quote_nullable(e.source),
    quote_nullable(e.reason_code),
    quote_nullable(e.reason_text)), 'UTF8'))
$$;--> statement-breakpoint
-- Existing entries: digests, then the chain in id order (a temporary table, so each entry is
-- rewritten once). The append-only trigger is off only for this migration's own transaction.
ALTER TABLE "audit_entries" DISABLE TRIGGER "audit_entries_no_change";--> statement-breakpoint
UPDATE "audit_entries" SET
  "old_digest" = sha256(convert_to("old_value", 'UTF8')),
  "new_digest" = sha256(convert_to("new_value", 'UTF8'))
WHERE "old_value" IS NOT NULL OR "new_value" IS NOT NULL;--> statement-breakpoint
CREATE TEMPORARY TABLE "audit_chain_backfill" ("id" bigint PRIMARY KEY, "hash" bytea NOT NULL);--> statement-breakpoint
DO $$
DECLARE
  prev bytea := '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
  e audit_entries;
  last bigint;
BEGIN
  FOR e IN SELECT * FROM audit_entries ORDER BY id LOOP
    prev := audit_entry_hash(prev, e);
    last := e.id;
    INSERT INTO audit_chain_backfill VALUES (e.id, prev);
  END LOOP;
  INSERT INTO audit_chain_head (id, last_id, last_hash) VALUES (1, last, prev);
END
$$;--> statement-breakpoint
UPDATE "audit_entries" a SET "hash" = b."hash" FROM "audit_chain_backfill" b WHERE a."id" = b."id";--> statement-breakpoint
DROP TABLE "audit_chain_backfill";--> statement-breakpoint
ALTER TABLE "audit_entries" ENABLE TRIGGER "audit_entries_no_change";--> statement-breakpoint
ALTER TABLE "audit_entries" ALTER COLUMN "hash" SET NOT NULL;--> statement-breakpoint
-- Every entry, whoever inserts it: the reason of the transaction (or the implicit one of a
-- system writer, ADR 048), the digests, an id drawn under the chain lock, and the hash. The lock
-- is the head row FOR UPDATE, held to the end of the transaction; the previous link is the newest
-- entry (each statement of this function reads a fresh snapshot under READ COMMITTED, which the
-- portal uses throughout, so it sees what the last holder committed). The head row is not
-- written per entry: one transaction writing many entries would make its row versions a chain
-- to walk on every write. It is written once, at commit (audit_chain_head_write below).
CREATE FUNCTION audit_entry_chain() RETURNS trigger LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  prev bytea;
BEGIN
  PERFORM 1 FROM audit_chain_head WHERE id = 1 FOR UPDATE;
  SELECT hash INTO prev FROM audit_entries ORDER BY id DESC LIMIT 1;
  prev := coalesce(prev, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea);
  NEW.id := nextval('audit_entries_id_seq');
  IF NEW.reason_code IS NULL THEN
    NEW.reason_code := nullif(current_setting('app.reason_code', true), '');
    NEW.reason_text := nullif(current_setting('app.reason_text', true), '');
  END IF;
  -- A laboratory's or an import's replacement of a value already there is a correction from
  -- the source document; its first value is a first entry and needs no reason.
  IF NEW.reason_code IS NULL AND NEW.source IN ('hl7', 'import', 'manual_match')
     AND NEW.operation IN ('update', 'delete') AND NEW.old_value IS NOT NULL THEN
    NEW.reason_code := 'source_correction';
  END IF;
  NEW.old_digest := sha256(convert_to(NEW.old_value, 'UTF8'));
  NEW.new_digest := sha256(convert_to(NEW.new_value, 'UTF8'));
  NEW.hash := audit_entry_hash(prev, NEW);
  RETURN NEW;
END
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_entry_chain() FROM PUBLIC;--> statement-breakpoint
CREATE TRIGGER audit_entries_chain BEFORE INSERT ON audit_entries
  FOR EACH ROW EXECUTE FUNCTION audit_entry_chain();--> statement-breakpoint
-- At commit the head names the newest entry, so that a verifier notices removed newest entries.
-- Deferred row triggers fire once per entry; the first writes, the others see it done.
CREATE FUNCTION audit_chain_head_write() RETURNS trigger LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  newest audit_entries;
BEGIN
  SELECT * INTO newest FROM audit_entries ORDER BY id DESC LIMIT 1;
  IF current_setting('app.chain_head_written', true) IS DISTINCT FROM newest.id::text THEN
    UPDATE audit_chain_head SET last_id = newest.id, last_hash = newest.hash WHERE id = 1;
    PERFORM set_config('app.chain_head_written', newest.id::text, true);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_chain_head_write() FROM PUBLIC;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER audit_entries_chain_head AFTER INSERT ON audit_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_chain_head_write();--> statement-breakpoint
-- Record locks (ADR 048): one row per locked visit or sample, audited like patient data.
CREATE TABLE "record_locks" (
  "record_type" text NOT NULL CHECK ("record_type" in ('visit', 'probe')),
  "record_id" integer NOT NULL,
  "patient_id" integer NOT NULL REFERENCES "patients"("id"),
  "locked_by" integer REFERENCES "users"("id"),
  "locked_at" timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY ("record_type", "record_id")
);--> statement-breakpoint
CREATE TRIGGER record_locks_audit AFTER INSERT OR UPDATE OR DELETE ON record_locks
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');--> statement-breakpoint
-- Any change of a locked record fails here, whatever wrote it; the API answers 409
-- record_locked (errors plugin, SQLSTATE P0001 with this message).
CREATE FUNCTION refuse_locked_record() RETURNS trigger LANGUAGE plpgsql
  SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM record_locks WHERE record_type = TG_ARGV[0] AND record_id = OLD.id) THEN
    RAISE EXCEPTION 'record_locked' USING ERRCODE = 'P0001', HINT = 'record_locked';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;--> statement-breakpoint
CREATE TRIGGER visits_locked BEFORE UPDATE OR DELETE ON visits
  FOR EACH ROW EXECUTE FUNCTION refuse_locked_record('visit');--> statement-breakpoint
CREATE TRIGGER probes_locked BEFORE UPDATE OR DELETE ON probes
  FOR EACH ROW EXECUTE FUNCTION refuse_locked_record('probe');--> statement-breakpoint
-- The study lock is the setting `study_lock`; its changes are audited (settings have no
-- patient, so this small function instead of audit_row()).
CREATE FUNCTION audit_study_lock() RETURNS trigger LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF NEW.key = 'study_lock' AND (TG_OP = 'INSERT' OR OLD.value IS DISTINCT FROM NEW.value) THEN
    INSERT INTO audit_entries (user_id, patient_id, entity_name, entity_id, operation, column_name,
      old_value, new_value, source)
    VALUES (nullif(current_setting('app.user_id', true), '')::integer, NULL, 'settings',
      'study_lock', lower(TG_OP), 'locked',
      CASE WHEN TG_OP = 'UPDATE' THEN OLD.value ->> 'locked' END, NEW.value ->> 'locked',
      nullif(current_setting('app.source', true), ''));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_study_lock() FROM PUBLIC;--> statement-breakpoint
CREATE TRIGGER settings_study_lock_audit AFTER INSERT OR UPDATE ON settings
  FOR EACH ROW EXECUTE FUNCTION audit_study_lock();
