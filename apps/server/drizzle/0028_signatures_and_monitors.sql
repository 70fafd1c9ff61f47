-- Issue 23: electronic signatures (ADR 050), the monitor role with its units, source data
-- verification marks and queries (ADR 051). Each new table of patient data is audited by
-- audit_row like the records it speaks of, under the record's patient; monitor accounts are
-- staff accounts, not audited, like doctors'.
ALTER TABLE "users" DROP CONSTRAINT IF EXISTS "users_role_check";--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("role" in ('admin', 'doctor', 'patient', 'monitor'));--> statement-breakpoint
-- A monitor (CRA): an account like a doctor's (login = e-mail), reaching the units assigned.
CREATE TABLE IF NOT EXISTS "monitors" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"firstname" text NOT NULL,
	"surname" text NOT NULL,
	"email" text NOT NULL,
	"phone_number" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "monitors_phone_number_check" CHECK ("phone_number" ~ '^[0-9]{9}$')
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "monitors_user_id_key" ON "monitors" ("user_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "monitor_units" (
	"monitor_id" integer NOT NULL REFERENCES "monitors"("id") ON DELETE CASCADE,
	"unit_id" integer NOT NULL REFERENCES "units"("id"),
	CONSTRAINT "monitor_units_pkey" PRIMARY KEY ("monitor_id", "unit_id")
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "monitor_units_unit_id_idx" ON "monitor_units" ("unit_id");--> statement-breakpoint
-- An electronic signature: who (the signer's user), what it means, when, and the SHA-256 of the
-- record's signed content (ADR 050). A change to the signed content marks it invalidated (the
-- trigger below); it is kept. One valid signature per signer, meaning and record.
CREATE TABLE IF NOT EXISTS "signatures" (
	"id" serial PRIMARY KEY NOT NULL,
	"record_type" text NOT NULL,
	"record_id" integer NOT NULL,
	"patient_id" integer NOT NULL REFERENCES "patients"("id"),
	"signer_id" integer NOT NULL REFERENCES "users"("id"),
	"meaning" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"content_hash" text NOT NULL,
	"status" text DEFAULT 'valid' NOT NULL,
	"invalidated_at" timestamp with time zone,
	CONSTRAINT "signatures_record_type_check" CHECK ("record_type" in ('visit', 'probe')),
	CONSTRAINT "signatures_meaning_check" CHECK ("meaning" in ('author', 'approve', 'review')),
	CONSTRAINT "signatures_status_check" CHECK ("status" in ('valid', 'invalidated')),
	CONSTRAINT "signatures_invalidated_check" CHECK (("status" = 'invalidated') = ("invalidated_at" IS NOT NULL)),
	CONSTRAINT "signatures_content_hash_check" CHECK ("content_hash" ~ '^[0-9a-f]{64}$')
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "signatures_valid_key" ON "signatures" ("record_type", "record_id", "signer_id", "meaning") WHERE "status" = 'valid';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signatures_record_idx" ON "signatures" ("record_type", "record_id", "id");--> statement-breakpoint
CREATE TRIGGER signatures_audit AFTER INSERT OR UPDATE OR DELETE ON signatures
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');--> statement-breakpoint
-- A monitor's source data verification mark. A later change to the record sets cleared_at (the
-- trigger below): the record then says "changed after verification" until verified again.
CREATE TABLE IF NOT EXISTS "verifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"record_type" text NOT NULL,
	"record_id" integer NOT NULL,
	"patient_id" integer NOT NULL REFERENCES "patients"("id"),
	"verified_by" integer NOT NULL REFERENCES "users"("id"),
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cleared_at" timestamp with time zone,
	CONSTRAINT "verifications_record_type_check" CHECK ("record_type" in ('patient', 'visit', 'probe'))
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "verifications_current_key" ON "verifications" ("record_type", "record_id") WHERE "cleared_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "verifications_record_idx" ON "verifications" ("record_type", "record_id", "id");--> statement-breakpoint
CREATE TRIGGER verifications_audit AFTER INSERT OR UPDATE OR DELETE ON verifications
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');--> statement-breakpoint
-- A monitor's query (data clarification) on a record or one of its fields, with its thread.
CREATE TABLE IF NOT EXISTS "queries" (
	"id" serial PRIMARY KEY NOT NULL,
	"record_type" text NOT NULL,
	"record_id" integer NOT NULL,
	"patient_id" integer NOT NULL REFERENCES "patients"("id"),
	-- The patient's unit when the query was opened: the per-unit list and count read it.
	"unit_id" integer NOT NULL REFERENCES "units"("id"),
	"field" text,
	"status" text DEFAULT 'open' NOT NULL,
	"opened_by" integer NOT NULL REFERENCES "users"("id"),
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "queries_record_type_check" CHECK ("record_type" in ('patient', 'visit', 'probe')),
	CONSTRAINT "queries_status_check" CHECK ("status" in ('open', 'answered', 'closed')),
	CONSTRAINT "queries_closed_check" CHECK (("status" = 'closed') = ("closed_at" IS NOT NULL)),
	CONSTRAINT "queries_field_check" CHECK ("field" ~ '^[a-z_]{1,64}$')
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "queries_unit_status_idx" ON "queries" ("unit_id", "status", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "queries_status_idx" ON "queries" ("status", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "queries_record_idx" ON "queries" ("record_type", "record_id", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "queries_patient_idx" ON "queries" ("patient_id", "status");--> statement-breakpoint
CREATE TRIGGER queries_audit AFTER INSERT OR UPDATE OR DELETE ON queries
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "query_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"query_id" integer NOT NULL REFERENCES "queries"("id") ON DELETE CASCADE,
	"patient_id" integer NOT NULL REFERENCES "patients"("id"),
	"author_id" integer NOT NULL REFERENCES "users"("id"),
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "query_messages_text_check" CHECK (length(btrim("text")) BETWEEN 1 AND 5000)
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "query_messages_query_idx" ON "query_messages" ("query_id", "id");--> statement-breakpoint
CREATE TRIGGER query_messages_audit AFTER INSERT OR UPDATE OR DELETE ON query_messages
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');--> statement-breakpoint
-- A change to a record's signed or verified content, by any path (the API, an import, the
-- laboratory, an owner's hand): its valid signatures become invalidated and its verification
-- mark is cleared. Arguments: the record type, the column naming the record, and the watched
-- columns (comma separated). An UPDATE counts when a watched column changed; an INSERT or a
-- DELETE of a child row (a medicine, a concentration) always does. The watched columns of visits
-- and probes are the signed content of ADR 050, so a signature is invalid exactly when its
-- content hash no longer matches.
CREATE OR REPLACE FUNCTION record_content_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := TG_ARGV[0];
  watched text[] := string_to_array(TG_ARGV[2], ',');
  old_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END;
  new_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) END;
  rec integer := (coalesce(new_row, old_row) ->> TG_ARGV[1])::integer;
  col text;
  changed boolean := TG_OP <> 'UPDATE';
BEGIN
  IF NOT changed THEN
    FOREACH col IN ARRAY watched LOOP
      IF (old_row -> col) IS DISTINCT FROM (new_row -> col) THEN
        changed := true;
        EXIT;
      END IF;
    END LOOP;
  END IF;
  IF changed THEN
    UPDATE signatures SET status = 'invalidated', invalidated_at = now()
      WHERE record_type = kind AND record_id = rec AND status = 'valid';
    UPDATE verifications SET cleared_at = now()
      WHERE record_type = kind AND record_id = rec AND cleared_at IS NULL;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER visits_content_changed AFTER UPDATE ON visits
  FOR EACH ROW EXECUTE FUNCTION record_content_changed('visit', 'id',
    'patient_id,date,started_at,ended_at,is_done,comment,qt,rr,pq,qrs,qtcb,qtcfra,out_of_window,window_reason,notes,cancelled_at');--> statement-breakpoint
CREATE TRIGGER probes_content_changed AFTER UPDATE ON probes
  FOR EACH ROW EXECUTE FUNCTION record_content_changed('probe', 'id',
    'patient_id,date_of_sample,type_of_test,type_of_material,adverse_events,alt,ast,creatine,bilirubine,concentration_hours,concentration_date_of_analysis,results_at,result_comparators');--> statement-breakpoint
CREATE TRIGGER probe_medicines_content_changed AFTER INSERT OR UPDATE OR DELETE ON probe_medicines
  FOR EACH ROW EXECUTE FUNCTION record_content_changed('probe', 'probe_id', 'medicine_id,concentration');--> statement-breakpoint
CREATE TRIGGER patients_content_changed AFTER UPDATE ON patients
  FOR EACH ROW EXECUTE FUNCTION record_content_changed('patient', 'id',
    'firstname,surname,pesel,sex,birth_date,address_street,address_building,address_apartment,address_postcode,address_city,phone_number,email,weight,height,project_number,is_above_18,is_classified,is_finished,exclusion_criteria_id,doctor_id,unit_id,deleted_at');--> statement-breakpoint
CREATE TRIGGER patient_inclusions_content_changed AFTER INSERT OR UPDATE OR DELETE ON patient_inclusions
  FOR EACH ROW EXECUTE FUNCTION record_content_changed('patient', 'patient_id', 'group_id,subgroup_id,dose,interval');--> statement-breakpoint
CREATE TRIGGER patient_medicines_content_changed AFTER INSERT OR UPDATE OR DELETE ON patient_medicines
  FOR EACH ROW EXECUTE FUNCTION record_content_changed('patient', 'patient_id', 'medicine_id,dose');--> statement-breakpoint
CREATE TRIGGER patient_additional_medicines_content_changed AFTER INSERT OR UPDATE OR DELETE ON patient_additional_medicines
  FOR EACH ROW EXECUTE FUNCTION record_content_changed('patient', 'patient_id', 'name,dose');
