-- Samples (issue 10, docs/product-rules.md "Probe number", "Sample results", "Safety alerts"; ADR
-- 030).
-- What a sample is carried in: a tube or a dried-blood card. Names are the study's data.
CREATE TABLE IF NOT EXISTS "carriers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL,
	CONSTRAINT "carriers_name_key" UNIQUE ("name")
);--> statement-breakpoint
INSERT INTO "carriers" ("name") VALUES
	('Probówka EDTA'),
	('Probówka z żelem (surowica)'),
	('Karta DBS (sucha kropla krwi)'),
	('Mikrosampler wolumetryczny (VAMS)')
ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "probes" (
	"id" serial PRIMARY KEY NOT NULL,
	-- Built on the server from the saved probe_config (docs/product-rules.md "Probe number"); unique
	-- across the study.
	"code" text NOT NULL,
	"patient_id" integer NOT NULL REFERENCES "patients"("id"),
	"visit_id" integer REFERENCES "visits"("id"),
	-- The patient's n-th sample ("next probe number"); unique per patient, so two nurses saving
	-- at the same moment cannot both take the same number.
	"probe_number" integer NOT NULL,
	"status" text DEFAULT 'collected' NOT NULL,
	"date_of_sample" date NOT NULL,
	"type_of_test" text DEFAULT 'biochemistry' NOT NULL,
	"type_of_material" text DEFAULT 'venous' NOT NULL,
	"collect_place" text DEFAULT 'clinic' NOT NULL,
	"is_cito" boolean DEFAULT true NOT NULL,
	"carrier_id" integer NOT NULL REFERENCES "carriers"("id"),
	"ordered_by_firstname" text NOT NULL,
	"ordered_by_surname" text NOT NULL,
	"ordered_at" date NOT NULL,
	-- The patient's name and address as written on the order (a copy: the order is a document).
	"patient_firstname" text NOT NULL,
	"patient_surname" text NOT NULL,
	"patient_address_street" text NOT NULL,
	"patient_address_building" text NOT NULL,
	"patient_address_postcode" text NOT NULL,
	"patient_address_city" text NOT NULL,
	-- The laboratory the sample goes to, copied from the `laboratory` setting at creation.
	"laboratory_address" text,
	"laboratory_postcode" text,
	"laboratory_city" text,
	"adverse_events" text,
	-- Biochemistry (U/l for ALT and AST, mg/dl for creatinine and bilirubin).
	"alt" numeric,
	"ast" numeric,
	"creatine" numeric,
	"bilirubine" numeric,
	-- Drug concentrations: hours since the last dose and the day of analysis; values per
	-- medicine live in probe_medicines.
	"concentration_hours" numeric,
	"concentration_date_of_analysis" date,
	"results_at" timestamp with time zone,
	-- Arrival at the laboratory (the reception scan): when and who.
	"arrived_at" timestamp with time zone,
	"arrived_by" integer REFERENCES "users"("id"),
	"created_by" integer REFERENCES "users"("id"),
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "probes_code_key" UNIQUE ("code"),
	CONSTRAINT "probes_patient_number_key" UNIQUE ("patient_id", "probe_number"),
	CONSTRAINT "probes_status_check" CHECK ("status" IN ('collected', 'sent', 'received')),
	CONSTRAINT "probes_type_of_test_check" CHECK ("type_of_test" IN ('biochemistry', 'drug_concentration')),
	CONSTRAINT "probes_type_of_material_check" CHECK ("type_of_material" IN ('venous', 'capillary')),
	CONSTRAINT "probes_collect_place_check" CHECK ("collect_place" IN ('clinic', 'home')),
	CONSTRAINT "probes_code_check" CHECK (length("code") BETWEEN 1 AND 64),
	CONSTRAINT "probes_probe_number_check" CHECK ("probe_number" > 0),
	CONSTRAINT "probes_results_check" CHECK (
		"alt" >= 0 AND "ast" >= 0 AND "creatine" >= 0 AND "bilirubine" >= 0
		AND "concentration_hours" >= 0
	) -- a NULL makes a CHECK pass, so each bound holds only for values that are there
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probes_created_at_id_idx" ON "probes" USING btree ("created_at", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probes_patient_id_created_at_idx" ON "probes" USING btree ("patient_id", "created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probes_visit_id_idx" ON "probes" USING btree ("visit_id") WHERE "visit_id" IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER probes_audit AFTER INSERT OR UPDATE OR DELETE ON probes
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');--> statement-breakpoint
-- The medicines a sample is tested for, with the measured concentration (ng/ml) once known.
CREATE TABLE IF NOT EXISTS "probe_medicines" (
	"id" serial PRIMARY KEY NOT NULL,
	"probe_id" integer NOT NULL REFERENCES "probes"("id") ON DELETE CASCADE,
	"patient_id" integer NOT NULL REFERENCES "patients"("id"),
	"medicine_id" integer NOT NULL REFERENCES "medicines"("id"),
	"concentration" numeric,
	CONSTRAINT "probe_medicines_probe_medicine_key" UNIQUE ("probe_id", "medicine_id"),
	CONSTRAINT "probe_medicines_concentration_check" CHECK ("concentration" >= 0)
);--> statement-breakpoint
CREATE TRIGGER probe_medicines_audit AFTER INSERT OR UPDATE OR DELETE ON probe_medicines
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');--> statement-breakpoint
-- Reference ranges (data/reference-ranges.json), kept in the database so that a study can change
-- them. `sex` NULL applies to both; `below` is a "<" limit: a value must be below it.
CREATE TABLE IF NOT EXISTS "reference_ranges" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"analyte" text NOT NULL,
	"unit" text NOT NULL,
	"sex" text,
	"min" numeric,
	"max" numeric,
	"below" numeric,
	CONSTRAINT "reference_ranges_kind_check" CHECK ("kind" IN ('biochemistry', 'drug', 'ecg')),
	CONSTRAINT "reference_ranges_sex_check" CHECK ("sex" IN ('M', 'K')),
	CONSTRAINT "reference_ranges_bounds_check" CHECK ("min" IS NULL OR "max" IS NULL OR "min" <= "max")
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "reference_ranges_analyte_sex_key" ON "reference_ranges" USING btree ("kind", "analyte", coalesce("sex", ''));--> statement-breakpoint
INSERT INTO "reference_ranges" ("kind", "analyte", "unit", "sex", "min", "max", "below") VALUES
	('biochemistry', 'alt', 'U/l', 'M', 9, 59, NULL),
	('biochemistry', 'alt', 'U/l', 'K', 8, 41, NULL),
	('biochemistry', 'ast', 'U/l', 'M', 11, 34, NULL),
	('biochemistry', 'ast', 'U/l', 'K', 11, 34, NULL),
	('biochemistry', 'creatine', 'mg/dl', 'M', 0.63, 1.16, NULL),
	('biochemistry', 'creatine', 'mg/dl', 'K', 0.48, 0.93, NULL),
	('biochemistry', 'bilirubine', 'mg/dl', NULL, NULL, NULL, 1.2),
	('drug', 'amlodipine', 'ng/ml', NULL, 6, 18, NULL),
	('ecg', 'pq', 'ms', NULL, 120, 200, NULL),
	('ecg', 'qrs', 'ms', NULL, NULL, 110, NULL),
	('ecg', 'qtcb', 'ms', 'M', NULL, 450, NULL),
	('ecg', 'qtcb', 'ms', 'K', NULL, 460, NULL),
	('ecg', 'qtcfra', 'ms', NULL, NULL, 450, NULL),
	('ecg', 'rr', 'ms', NULL, 600, 1000, NULL)
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- The safety rules (docs/product-rules.md "Safety alerts") with their numbers, switchable per
-- study.
CREATE TABLE IF NOT EXISTS "safety_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"meaning" text NOT NULL,
	"params" jsonb NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL
);--> statement-breakpoint
INSERT INTO "safety_rules" ("id", "meaning", "params") VALUES
	('hys_law', 'possible drug-induced liver injury', '{"alt_uln_factor": 3, "ast_uln_factor": 3, "bilirubine_uln_factor": 2}'),
	('qtcf_500', 'QTc prolongation', '{"limit_ms": 500}'),
	('qtcf_delta_60', 'QTc prolongation from baseline', '{"delta_ms": 60}')
ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "safety_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL REFERENCES "patients"("id"),
	"rule" text NOT NULL REFERENCES "safety_rules"("id"),
	-- What fired: the values and limits, e.g. {"alt": 200, "alt_uln": 59, "bilirubine": 3}.
	"details" jsonb NOT NULL,
	"probe_id" integer REFERENCES "probes"("id"),
	"visit_id" integer REFERENCES "visits"("id"),
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" integer REFERENCES "users"("id"),
	"acknowledge_comment" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "safety_alerts_source_check" CHECK (("probe_id" IS NULL) <> ("visit_id" IS NULL)),
	CONSTRAINT "safety_alerts_acknowledged_check" CHECK (("acknowledged_at" IS NULL) = ("acknowledged_by" IS NULL))
);--> statement-breakpoint
-- One open alert per rule and sample (or visit): storing corrected results again refreshes it.
CREATE UNIQUE INDEX IF NOT EXISTS "safety_alerts_open_probe_key" ON "safety_alerts" USING btree ("rule", "probe_id") WHERE "acknowledged_at" IS NULL AND "probe_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "safety_alerts_open_visit_key" ON "safety_alerts" USING btree ("rule", "visit_id") WHERE "acknowledged_at" IS NULL AND "visit_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "safety_alerts_patient_id_idx" ON "safety_alerts" USING btree ("patient_id", "created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "safety_alerts_open_idx" ON "safety_alerts" USING btree ("created_at") WHERE "acknowledged_at" IS NULL;--> statement-breakpoint
CREATE TRIGGER safety_alerts_audit AFTER INSERT OR UPDATE OR DELETE ON safety_alerts
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');
