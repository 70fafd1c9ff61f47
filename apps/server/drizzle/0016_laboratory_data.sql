-- Laboratory data in and out (issue 12, docs/product-rules.md "Laboratory integration", "Imports";
-- docs/api-conventions.md "Laboratory", "Import"; ADR 032).
-- Every HL7 message the laboratory delivered, accepted or not, so that every error is findable.
-- An accepted message's control id (MSH-10) is unique: a repeated delivery changes nothing.
CREATE TABLE IF NOT EXISTS "lab_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"control_id" text NOT NULL,
	"sending_facility" text,
	"status" text NOT NULL,
	"error" text,
	"results_count" integer DEFAULT 0 NOT NULL,
	-- The message as received (ER7); it names patients, so it is never logged.
	"raw" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lab_messages_status_check" CHECK ("status" IN ('accepted', 'rejected')),
	CONSTRAINT "lab_messages_control_id_check" CHECK (length("control_id") BETWEEN 1 AND 199)
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "lab_messages_accepted_control_id_key" ON "lab_messages" ("control_id")
  WHERE "status" = 'accepted';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "lab_messages_received_at_idx" ON "lab_messages" ("received_at", "id");--> statement-breakpoint
-- Import batches: each upload is one, validated whole before anything is written; a flush
-- soft-deletes what a batch wrote and can be undone.
CREATE TABLE IF NOT EXISTS "import_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	-- [{name, size}] of the uploaded files.
	"files" jsonb NOT NULL,
	-- What the batch wrote, by kind ({patients: 12} or {results: 40, unmatched: 2}).
	"counts" jsonb NOT NULL,
	"created_by" integer REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"flushed_at" timestamp with time zone,
	"flushed_by" integer REFERENCES "users"("id"),
	CONSTRAINT "import_batches_mode_check" CHECK ("mode" IN ('patient_data', 'results'))
);--> statement-breakpoint
-- The batch that imported a patient (null: registered in the portal).
ALTER TABLE "patients" ADD COLUMN IF NOT EXISTS "import_batch_id" integer REFERENCES "import_batches"("id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "patients_import_batch_id_idx" ON "patients" ("import_batch_id")
  WHERE "import_batch_id" IS NOT NULL;--> statement-breakpoint
-- Where a sample's results came from, and the laboratory's own reference ranges when it sent
-- them ({analyte: {text, min, max, unit}}), preferred over the study's for the flags.
ALTER TABLE "probes" ADD COLUMN IF NOT EXISTS "results_source" text;--> statement-breakpoint
ALTER TABLE "probes" ADD CONSTRAINT "probes_results_source_check"
  CHECK ("results_source" IN ('hand', 'hl7', 'import'));--> statement-breakpoint
ALTER TABLE "probes" ADD COLUMN IF NOT EXISTS "lab_ranges" jsonb;--> statement-breakpoint
-- Results that could not be attached: no sample with the code, or the sample's patient's sex or
-- birth date disagree with the laboratory's. They wait for an administrator to match or discard.
CREATE TABLE IF NOT EXISTS "unmatched_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"lab_message_id" integer REFERENCES "lab_messages"("id"),
	"import_batch_id" integer REFERENCES "import_batches"("id"),
	"probe_code" text NOT NULL,
	-- alt, ast, creatine, bilirubine or medicine_{id}; the laboratory's code as sent in `raw`.
	"analyte" text NOT NULL,
	"value" numeric,
	"unit" text,
	"lab_range" text,
	"date_of_analysis" date,
	"hours" numeric,
	"patient_sex" text,
	"patient_birth_date" date,
	"reason" text NOT NULL,
	"raw" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	-- Set when matched: the sample and its patient (so the audit trail files it under them).
	"probe_id" integer REFERENCES "probes"("id"),
	"patient_id" integer REFERENCES "patients"("id"),
	"resolved_at" timestamp with time zone,
	"resolved_by" integer REFERENCES "users"("id"),
	"discard_reason" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "unmatched_results_reason_check" CHECK ("reason" IN ('no_probe', 'sex_mismatch', 'birth_date_mismatch')),
	CONSTRAINT "unmatched_results_status_check" CHECK ("status" IN ('open', 'matched', 'discarded')),
	CONSTRAINT "unmatched_results_resolution_check" CHECK (
		("status" = 'open') = ("resolved_at" IS NULL)
		AND ("status" <> 'matched' OR "probe_id" IS NOT NULL)
		AND ("status" <> 'discarded' OR length(btrim(coalesce("discard_reason", ''))) > 0)
	)
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "unmatched_results_open_idx" ON "unmatched_results" ("created_at", "id")
  WHERE "status" = 'open';--> statement-breakpoint
CREATE TRIGGER unmatched_results_audit AFTER INSERT OR UPDATE OR DELETE ON unmatched_results
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id', 'raw');
