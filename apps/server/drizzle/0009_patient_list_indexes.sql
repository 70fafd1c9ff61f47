-- The patients list at 100,000 patients (ADR 021): every offered sort and filter is served by an
-- index, so that a deep offset or a sort by surname or group walks an index instead of sorting
-- the joined table. The list first pages ids (only these indexes), then loads the page's rows.
-- Sort by surname (then id), for every unit and within a doctor's own unit.
CREATE INDEX IF NOT EXISTS "patients_surname_id_idx" ON "patients" ("surname", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "patients_unit_surname_id_idx" ON "patients" ("unit_id", "surname", "id");--> statement-breakpoint
-- Sort by id and by PESEL within a doctor's unit (across units: the primary key, patients_pesel_key).
CREATE INDEX IF NOT EXISTS "patients_unit_id_id_idx" ON "patients" ("unit_id", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "patients_unit_pesel_idx" ON "patients" ("unit_id", "pesel");--> statement-breakpoint
-- Filters: finished or not, by doctor, in id order.
CREATE INDEX IF NOT EXISTS "patients_is_finished_id_idx" ON "patients" ("is_finished", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "patients_doctor_id_id_idx" ON "patients" ("doctor_id", "id");--> statement-breakpoint
-- Filter and sort by group: each group's patients in id order (the subgroup carried along for the
-- subgroup filter), and the subgroup filter on its own.
CREATE INDEX IF NOT EXISTS "patient_inclusions_group_patient_idx" ON "patient_inclusions" ("group_id", "patient_id") INCLUDE ("subgroup_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "patient_inclusions_subgroup_patient_idx" ON "patient_inclusions" ("subgroup_id", "patient_id");--> statement-breakpoint
-- Filter by medicine (patient_medicines_patient_medicine_key serves the other direction).
CREATE INDEX IF NOT EXISTS "patient_medicines_medicine_patient_idx" ON "patient_medicines" ("medicine_id", "patient_id");--> statement-breakpoint
-- Search terms too short for trigrams (1-2 letters, e.g. a lone "ł") match the start of the
-- surname, first name or PESEL, without case and diacritics: prefix ranges on these indexes.
CREATE INDEX IF NOT EXISTS "patients_surname_prefix_idx" ON "patients" (lower(portal_unaccent("surname")) text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "patients_firstname_prefix_idx" ON "patients" (lower(portal_unaccent("firstname")) text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "patients_pesel_prefix_idx" ON "patients" ("pesel" text_pattern_ops);--> statement-breakpoint
-- The picker (GET /api/patients/options): not deleted patients by surname, first name, id.
CREATE INDEX IF NOT EXISTS "patients_picker_idx" ON "patients" ("surname", "firstname", "id") WHERE "deleted_at" IS NULL;--> statement-breakpoint
ANALYZE "patients";--> statement-breakpoint
ANALYZE "patient_inclusions";--> statement-breakpoint
ANALYZE "patient_medicines";
