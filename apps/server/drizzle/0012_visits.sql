-- Visits (issue 9, docs/product-rules.md "Slot grid", "Recording a visit", "Visit windows"; ADR
-- 026).
-- A visit sits in the patient's unit on one slot of the grid. Cancelling sets cancelled_at: the
-- row stays, so the audit trail and the visit's history stay whole, and the slot is free again.
CREATE TABLE IF NOT EXISTS "visits" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL REFERENCES "patients"("id"),
	"unit_id" integer NOT NULL REFERENCES "units"("id"),
	"doctor_id" integer REFERENCES "doctors"("id"),
	"date" date NOT NULL,
	"started_at" time NOT NULL,
	"ended_at" time NOT NULL,
	"is_done" boolean DEFAULT false NOT NULL,
	"comment" text,
	"qt" integer,
	"rr" integer,
	"pq" integer,
	"qrs" integer,
	"qtcb" integer,
	"qtcfra" integer,
	"out_of_window" boolean DEFAULT false NOT NULL,
	"window_reason" text,
	"cancelled_at" timestamp with time zone,
	"created_by" integer REFERENCES "users"("id"),
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visits_ended_at_check" CHECK ("ended_at" > "started_at"),
	-- The plausible ECG values of packages/shared/src/ecg.ts ECG_PLAUSIBLE, in ms.
	CONSTRAINT "visits_qt_check" CHECK ("qt" BETWEEN 100 AND 1000),
	CONSTRAINT "visits_rr_check" CHECK ("rr" BETWEEN 200 AND 3000),
	CONSTRAINT "visits_pq_check" CHECK ("pq" BETWEEN 40 AND 1000),
	CONSTRAINT "visits_qrs_check" CHECK ("qrs" BETWEEN 20 AND 400),
	CONSTRAINT "visits_window_reason_check" CHECK (NOT "out_of_window" OR "window_reason" IS NOT NULL),
	CONSTRAINT "visits_cancelled_not_done_check" CHECK ("cancelled_at" IS NULL OR NOT "is_done")
);--> statement-breakpoint
-- One visit per unit and slot and one per patient and slot (docs/product-rules.md "Slot grid"),
-- kept by the database so that two bookings at the same moment cannot both win. Cancelled visits
-- free their slot.
CREATE UNIQUE INDEX IF NOT EXISTS "visits_unit_slot_key" ON "visits" USING btree ("unit_id", "date", "started_at") WHERE "cancelled_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "visits_patient_slot_key" ON "visits" USING btree ("patient_id", "date", "started_at") WHERE "cancelled_at" IS NULL;--> statement-breakpoint
-- A patient's visits by date: the visits tab, the ordinal, the list's last and next visit.
CREATE INDEX IF NOT EXISTS "visits_patient_id_date_idx" ON "visits" USING btree ("patient_id", "date", "started_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "visits_doctor_id_idx" ON "visits" USING btree ("doctor_id");--> statement-breakpoint
CREATE TRIGGER visits_audit AFTER INSERT OR UPDATE OR DELETE ON visits
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');
