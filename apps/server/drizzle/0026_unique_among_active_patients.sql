-- A PESEL is unique among active patients only, as the e-mail already is (0004): a patient a
-- flush of the data import soft-deleted no longer blocks the corrected file's import of the same
-- person (ADR 008, ADR 032). A restore, of the batch or of the patient, then checks that nobody
-- active took the PESEL meanwhile; this index decides when two happen at once.
DROP INDEX IF EXISTS "patients_pesel_key";--> statement-breakpoint
CREATE UNIQUE INDEX "patients_pesel_key" ON "patients" USING btree ("pesel") WHERE "deleted_at" IS NULL;
