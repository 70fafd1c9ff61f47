-- Participant numbers in sample codes and carriers that fit the material (issue 21, ADR 041).
--
-- The key a project number is compared by: what the sample code builder makes of it
-- (barcodeSafe in packages/shared/src/probe-code.ts: NFC, Polish letters transliterated,
-- everything but ASCII letters, digits and "-" dropped), in lower case, as the codes themselves
-- are compared (ADR 035). Two numbers with one key would give the same part of a code.
CREATE FUNCTION portal_participant_key(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(regexp_replace(
    translate(normalize($1, NFC), 'ĄĆĘŁŃÓŚŹŻąćęłńóśźż', 'ACELNOSZZacelnoszz'),
    '[^A-Za-z0-9-]', '', 'g')) $$;--> statement-breakpoint
-- Existing duplicates among active patients (the demo gave every patient "FDC-KARDIO-2026"):
-- the first registered keeps the number, every later one gets its own id appended
-- ("FDC-KARDIO-2026-7"), which makes it unique and still says which study number it came
-- from. Samples already made keep their codes. The audit trigger records each change.
WITH ranked AS (
  SELECT id, row_number() OVER (
    PARTITION BY portal_participant_key(project_number) ORDER BY id) AS n
  FROM patients
  WHERE deleted_at IS NULL AND portal_participant_key(project_number) <> ''
)
UPDATE patients p SET project_number = p.project_number || '-' || p.id
FROM ranked r
WHERE r.id = p.id AND r.n > 1;--> statement-breakpoint
-- One active patient per project number (deleted ones keep theirs; restoring one whose number
-- was taken meanwhile is refused). A number that gives nothing in a code is no number: the
-- participant's id stands in for it in the code.
CREATE UNIQUE INDEX "patients_project_number_key" ON "patients" (portal_participant_key("project_number"))
  WHERE "deleted_at" IS NULL AND portal_participant_key("project_number") <> '';--> statement-breakpoint
-- Which materials a carrier takes: a dried blood spot card and a volumetric microsampler are
-- filled from a finger prick (capillary blood); tubes take either. The sample dialog questions
-- a sample whose carrier does not take its material (carrierFitsMaterial, packages/shared).
ALTER TABLE "carriers" ADD COLUMN "materials" text[] DEFAULT '{venous,capillary}' NOT NULL;--> statement-breakpoint
ALTER TABLE "carriers" ADD CONSTRAINT "carriers_materials_check"
  CHECK (cardinality("materials") > 0 AND "materials" <@ ARRAY['venous', 'capillary']::text[]);--> statement-breakpoint
UPDATE "carriers" SET "materials" = '{capillary}'
WHERE "name" IN ('Karta DBS (sucha kropla krwi)', 'Mikrosampler wolumetryczny (VAMS)');
