-- HL7 v2 as laboratories send it (issue 20, ADR 033).
-- How the laboratory qualified a result (HL7 SN): {analyte: {"comparator": "<", "upper": null}}
-- for "< 0,5" (below a detection limit; the analyte's column holds the limit), ">" above the
-- measuring range, "-" a range from the column's value to "upper". An analyte without a key is
-- a plain value. The probes audit trigger records the column like any other.
ALTER TABLE "probes" ADD COLUMN IF NOT EXISTS "result_comparators" jsonb;--> statement-breakpoint
ALTER TABLE "probes" ADD CONSTRAINT "probes_result_comparators_check"
  CHECK ("result_comparators" IS NULL OR jsonb_typeof("result_comparators") = 'object');--> statement-breakpoint
-- The laboratory's comments (NTE segments and text OBX): {"sample": text|null, "results":
-- {analyte: text}}, shown on the sample's page.
ALTER TABLE "probes" ADD COLUMN IF NOT EXISTS "lab_comments" jsonb;--> statement-breakpoint
ALTER TABLE "probes" ADD CONSTRAINT "probes_lab_comments_check"
  CHECK ("lab_comments" IS NULL OR jsonb_typeof("lab_comments") = 'object');--> statement-breakpoint
-- An OBX-3 code that names no analyte of the study waits by itself among the unmatched results.
ALTER TABLE "unmatched_results" DROP CONSTRAINT IF EXISTS "unmatched_results_reason_check";--> statement-breakpoint
ALTER TABLE "unmatched_results" ADD CONSTRAINT "unmatched_results_reason_check"
  CHECK ("reason" IN ('no_probe', 'sex_mismatch', 'birth_date_mismatch', 'unknown_analyte'));
