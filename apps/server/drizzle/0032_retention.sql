-- Retention (ADR 059): a patient whose participation ended more than the `retention` setting's
-- years ago is anonymised by a background job: the identity goes (names, PESEL, contacts,
-- address, the patient's own files), the clinical data stays. `anonymised_at` marks it, and a
-- run's progress is kept in `retention_runs` (no patient data: ids and counts only).
ALTER TABLE "patients" ADD COLUMN IF NOT EXISTS "anonymised_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "retention_runs" (
  "id" serial PRIMARY KEY NOT NULL,
  "status" text DEFAULT 'queued' NOT NULL,
  "years" integer NOT NULL,
  "requested_by" integer REFERENCES "users"("id"),
  "requested_at" timestamp with time zone DEFAULT now() NOT NULL,
  "started_at" timestamp with time zone,
  "finished_at" timestamp with time zone,
  "total" integer DEFAULT 0 NOT NULL,
  "done" integer DEFAULT 0 NOT NULL,
  "error" text,
  CONSTRAINT "retention_runs_status_check"
    CHECK ("status" in ('queued', 'running', 'done', 'failed')),
  CONSTRAINT "retention_runs_years_check" CHECK ("years" >= 1),
  CONSTRAINT "retention_runs_progress_check" CHECK ("done" >= 0 AND "done" <= "total")
);--> statement-breakpoint
-- One run at a time, however many nodes accept the request.
CREATE UNIQUE INDEX IF NOT EXISTS "retention_runs_one_active_key" ON "retention_runs" ((true))
  WHERE "status" in ('queued', 'running');--> statement-breakpoint
ALTER TABLE "audit_entries" DROP CONSTRAINT IF EXISTS "audit_entries_source_check";--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_source_check"
  CHECK ("source" in ('hl7', 'import', 'patient_import', 'flush', 'restore', 'tracking',
    'manual_match', 'retention'));--> statement-breakpoint
-- The columns that identify a patient, per audited table: what the anonymisation overwrites
-- and what it blanks in the patient's earlier audit entries.
CREATE OR REPLACE FUNCTION portal_identity_column(entity text, col text) RETURNS boolean
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE entity
    WHEN 'patients' THEN col in ('firstname', 'surname', 'pesel', 'birth_date', 'address_street',
      'address_building', 'address_apartment', 'address_postcode', 'address_city',
      'phone_number', 'email')
    WHEN 'probes' THEN col in ('patient_firstname', 'patient_surname', 'patient_address_street',
      'patient_address_building', 'patient_address_postcode', 'patient_address_city')
    WHEN 'probe_sets' THEN col in ('street', 'building', 'postcode', 'city')
    WHEN 'unmatched_results' THEN col in ('patient_firstname', 'patient_surname',
      'patient_birth_date')
    WHEN 'files' THEN col in ('original_name', 'comment')
    ELSE false
  END
$$;--> statement-breakpoint
-- As 0024, with one change: a change the retention job writes (source `retention`) keeps no old
-- value in clear, so the anonymisation's own entries do not preserve what it removed.
CREATE OR REPLACE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  old_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END;
  new_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) END;
  ref jsonb := coalesce(new_row, old_row);
  actor integer := nullif(current_setting('app.user_id', true), '')::integer;
  origin text := nullif(current_setting('app.source', true), '');
  skipped text[] := ARRAY['created_at', 'updated_at']
    || CASE WHEN TG_NARGS > 1 THEN string_to_array(TG_ARGV[1], ',') ELSE ARRAY[]::text[] END;
  col text;
BEGIN
  FOR col IN SELECT jsonb_object_keys(ref) LOOP
    CONTINUE WHEN col = ANY (skipped);
    CONTINUE WHEN TG_OP = 'UPDATE' AND (old_row -> col) IS NOT DISTINCT FROM (new_row -> col);
    CONTINUE WHEN TG_OP = 'INSERT' AND jsonb_typeof(new_row -> col) = 'null';
    CONTINUE WHEN TG_OP = 'DELETE' AND jsonb_typeof(old_row -> col) = 'null';
    INSERT INTO audit_entries
      (user_id, patient_id, entity_name, entity_id, operation, column_name, old_value, new_value,
       source)
    VALUES (
      actor,
      (ref ->> TG_ARGV[0])::integer,
      TG_TABLE_NAME,
      coalesce(ref ->> 'id', ref ->> 'patient_id'),
      lower(TG_OP),
      col,
      CASE WHEN origin = 'retention' THEN NULL ELSE old_row ->> col END,
      new_row ->> col,
      origin
    );
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Audit entries stay append-only (0002) with one exception: portal_blank_identity_audit() below
-- may set old_value and new_value of an identity column of an anonymised patient to NULL and
-- change nothing else (any other column, a digest or hash included, stays as it was).
CREATE OR REPLACE FUNCTION audit_entries_immutable() RETURNS trigger LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND current_setting('portal.audit_blanking', true) = 'on'
     AND NEW.old_value IS NULL AND NEW.new_value IS NULL
     AND (to_jsonb(NEW) - 'old_value' - 'new_value') = (to_jsonb(OLD) - 'old_value' - 'new_value')
     AND portal_identity_column(OLD.entity_name, OLD.column_name)
     AND EXISTS (SELECT 1 FROM patients p WHERE p.id = OLD.patient_id AND p.anonymised_at IS NOT NULL)
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit entries can be added, never changed or removed'
    USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
-- The only path that changes audit entries: for a patient already anonymised, the identity
-- values of the patient's earlier entries are set to NULL. It runs as the owner (the app role
-- has no UPDATE on audit_entries) and answers how many entries it blanked.
CREATE OR REPLACE FUNCTION portal_blank_identity_audit(target_patient integer) RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  blanked integer;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM patients WHERE id = target_patient AND anonymised_at IS NOT NULL) THEN
    RAISE EXCEPTION 'patient % is not anonymised', target_patient
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  PERFORM set_config('portal.audit_blanking', 'on', true);
  UPDATE audit_entries SET old_value = NULL, new_value = NULL
   WHERE patient_id = target_patient
     AND portal_identity_column(entity_name, column_name)
     AND source IS DISTINCT FROM 'retention'
     AND (old_value IS NOT NULL OR new_value IS NOT NULL);
  GET DIAGNOSTICS blanked = ROW_COUNT;
  PERFORM set_config('portal.audit_blanking', 'off', true);
  RETURN blanked;
END
$$;
