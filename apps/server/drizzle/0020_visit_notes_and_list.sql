-- Issue 20, ADR 038. The visit's notes: rich text (HTML sanitised by the server to the allow list
-- of every rich text), written by who may record the visit. The visits audit trigger (audit_row,
-- every column but the skipped ones) records it like the visit's other columns.
ALTER TABLE "visits" ADD COLUMN IF NOT EXISTS "notes" text;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_notes_length_check" CHECK (char_length("notes") <= 100000);--> statement-breakpoint
-- GET /api/visits without a date: live visits by date and start (then id), paged. A unit's
-- list walks visits_unit_slot_key (unit_id, date, started_at); every unit's and one doctor's
-- need their own, live visits only as those lists read them.
CREATE INDEX IF NOT EXISTS "visits_live_date_idx" ON "visits" USING btree ("date", "started_at", "id") WHERE "cancelled_at" IS NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "visits_live_doctor_date_idx" ON "visits" USING btree ("doctor_id", "date", "started_at", "id") WHERE "cancelled_at" IS NULL;
