-- Matching an unmatched result, and the laboratory's errors in the user's language (issue 21,
-- ADR 032).
-- The patient's name as the laboratory sent it (HL7 PID-5), shown beside the sample's patient
-- when an administrator matches the result.
ALTER TABLE "unmatched_results" ADD COLUMN IF NOT EXISTS "patient_firstname" text;--> statement-breakpoint
ALTER TABLE "unmatched_results" ADD COLUMN IF NOT EXISTS "patient_surname" text;--> statement-breakpoint
ALTER TABLE "unmatched_results" ADD CONSTRAINT "unmatched_results_patient_name_check"
  CHECK (length("patient_firstname") <= 200 AND length("patient_surname") <= 200);--> statement-breakpoint
-- The sample's page lists the open results its patient check held back.
CREATE INDEX IF NOT EXISTS "unmatched_results_open_code_idx" ON "unmatched_results" ("probe_code")
  WHERE "status" = 'open';--> statement-breakpoint
-- Why a message was refused as a code and its parameters ({probe_code, analyte, field}), which
-- the web says in the user's language; `error` keeps the ACK's text. `probe_codes`: every sample
-- the refused message named (all of them lost their results with it), for the samples' pages.
ALTER TABLE "lab_messages" ADD COLUMN IF NOT EXISTS "error_code" text;--> statement-breakpoint
ALTER TABLE "lab_messages" ADD COLUMN IF NOT EXISTS "error_params" jsonb;--> statement-breakpoint
ALTER TABLE "lab_messages" ADD COLUMN IF NOT EXISTS "probe_codes" text[];--> statement-breakpoint
ALTER TABLE "lab_messages" ADD CONSTRAINT "lab_messages_error_params_check"
  CHECK ("error_params" IS NULL OR jsonb_typeof("error_params") = 'object');--> statement-breakpoint
ALTER TABLE "lab_messages" ADD CONSTRAINT "lab_messages_error_code_check"
  CHECK (("status" = 'rejected') OR ("error_code" IS NULL AND "probe_codes" IS NULL));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "lab_messages_refused_probe_codes_idx" ON "lab_messages"
  USING gin ("probe_codes") WHERE "status" = 'rejected';
