-- Stable study subject ids for pseudonymised exports (issue 24, ADR 054): every patient gets
-- "S-{unit}-{n}", n counting the patients registered in that unit, kept here so that it never
-- changes when the patient moves to another unit, is deleted, restored or anonymised, and so
-- that an export of today and one of next year name the same subject alike. Written only by the
-- trigger below; the number says nothing about the person.
CREATE TABLE IF NOT EXISTS "study_subjects" (
	"patient_id" integer PRIMARY KEY NOT NULL REFERENCES "patients"("id") ON DELETE CASCADE,
	"unit_id" integer NOT NULL REFERENCES "units"("id"),
	"n" integer NOT NULL,
	CONSTRAINT "study_subjects_unit_n_key" UNIQUE ("unit_id", "n"),
	CONSTRAINT "study_subjects_n_check" CHECK ("n" > 0)
);--> statement-breakpoint
-- The patients registered so far, numbered in each unit in the order they were registered.
INSERT INTO "study_subjects" ("patient_id", "unit_id", "n")
SELECT "id", "unit_id", row_number() OVER (PARTITION BY "unit_id" ORDER BY "id")
FROM "patients"
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Every new patient, however registered (the form, the import, the demo), gets the next number
-- of the unit. The advisory lock (per unit) makes two registrations at once wait for each other
-- instead of both taking the same number.
CREATE FUNCTION portal_assign_study_subject() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7240030, NEW.unit_id);
  INSERT INTO study_subjects (patient_id, unit_id, n)
  SELECT NEW.id, NEW.unit_id, coalesce(max(n), 0) + 1 FROM study_subjects WHERE unit_id = NEW.unit_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER patients_study_subject AFTER INSERT ON patients
  FOR EACH ROW EXECUTE FUNCTION portal_assign_study_subject();--> statement-breakpoint
-- A subject id once given is never changed (a changed one would split a subject in two across
-- exports); deleting follows the patient's row only.
CREATE FUNCTION portal_study_subject_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'study subject ids never change' USING ERRCODE = 'check_violation';
END
$$;--> statement-breakpoint
CREATE TRIGGER study_subjects_immutable BEFORE UPDATE ON study_subjects
  FOR EACH ROW EXECUTE FUNCTION portal_study_subject_immutable();
