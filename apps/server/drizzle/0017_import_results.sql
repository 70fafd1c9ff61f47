-- What each results import wrote on a sample (issue 12, docs/product-rules.md "Imports"; ADR 032):
-- the value and the one it replaced, so that a flush can put the old value back and a restore can
-- write the imported one again.
CREATE TABLE IF NOT EXISTS "import_result_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"import_batch_id" integer NOT NULL REFERENCES "import_batches"("id"),
	"probe_id" integer NOT NULL REFERENCES "probes"("id"),
	-- alt, ast, creatine, bilirubine or medicine_{id}.
	"analyte" text NOT NULL,
	"value" numeric NOT NULL,
	"previous_value" numeric,
	CONSTRAINT "import_result_values_analyte_check"
		CHECK ("analyte" ~ '^(alt|ast|creatine|bilirubine|medicine_[1-9][0-9]{0,9})$')
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "import_result_values_batch_idx" ON "import_result_values" ("import_batch_id");
