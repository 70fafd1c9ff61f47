-- What a results import changed on a sample besides the values (issue 12, ADR 032): the drug
-- concentration's hours and date of analysis, where the results came from, the laboratory's
-- ranges, when the results arrived and the status, before the batch and as the batch left them.
-- One row per sample and batch (these are the sample's own columns, one of each, not one per
-- result as `import_result_values`); a flush puts `previous_*` back, a restore the rest.
-- Written once with the batch and never changed; the sample's own audit trigger records what a
-- flush or restore does to it.
CREATE TABLE IF NOT EXISTS "import_probe_states" (
	"id" serial PRIMARY KEY NOT NULL,
	"import_batch_id" integer NOT NULL REFERENCES "import_batches"("id"),
	"probe_id" integer NOT NULL REFERENCES "probes"("id"),
	"previous_concentration_hours" numeric,
	"previous_concentration_date_of_analysis" date,
	"previous_results_source" text,
	"previous_lab_ranges" jsonb,
	"previous_results_at" timestamp with time zone,
	"previous_status" text NOT NULL,
	"concentration_hours" numeric,
	"concentration_date_of_analysis" date,
	"results_source" text,
	"lab_ranges" jsonb,
	"results_at" timestamp with time zone,
	"status" text NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "import_probe_states_batch_probe_key" ON "import_probe_states" ("import_batch_id", "probe_id");
