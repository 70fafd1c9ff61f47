-- The samples list at 1,000,000 samples (issue 10, like ADR 021): every offered sort and filter
-- is served by an index, so a page walks an index instead of sorting the table. Created date:
-- probes_created_at_id_idx (0013); number: probes_code_key (unique); a patient filter:
-- probes_patient_id_created_at_idx (0013).
-- Sort by patient: the name on the sample (surname, first name), then id.
CREATE INDEX IF NOT EXISTS "probes_patient_name_id_idx" ON "probes" ("patient_surname", "patient_firstname", "id");--> statement-breakpoint
-- Sort by material type and by status (two and three values), then id.
CREATE INDEX IF NOT EXISTS "probes_type_of_material_id_idx" ON "probes" ("type_of_material", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probes_status_id_idx" ON "probes" ("status", "id");--> statement-breakpoint
-- Search of three letters or more: anywhere in the number or the patient's names, without case
-- or diacritics (modules/probes/list.ts probeSearchText: keep the two in step).
CREATE INDEX IF NOT EXISTS "probes_search_trgm_idx" ON "probes" USING gin (
  portal_unaccent("code" || ' ' || "patient_surname" || ' ' || "patient_firstname" || ' ' || "patient_surname") gin_trgm_ops
);--> statement-breakpoint
-- A shorter term matches the start of the number, the surname or the first name.
CREATE INDEX IF NOT EXISTS "probes_code_prefix_idx" ON "probes" (lower(portal_unaccent("code")) text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probes_surname_prefix_idx" ON "probes" (lower(portal_unaccent("patient_surname")) text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probes_firstname_prefix_idx" ON "probes" (lower(portal_unaccent("patient_firstname")) text_pattern_ops);--> statement-breakpoint
ANALYZE "probes";
