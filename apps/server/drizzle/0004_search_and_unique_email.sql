-- Search that ignores Polish diacritics (gorski finds Górski, lodz finds Łódź), kept fast by
-- trigram indexes, and one active patient per e-mail address.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), so it cannot be indexed directly; this
-- wrapper names the dictionary and is declared IMMUTABLE, which the indexes below need.
CREATE OR REPLACE FUNCTION portal_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;--> statement-breakpoint
-- The patients search matches one text holding "surname firstname surname pesel", so that
-- "Jan Kowalski", "Kowalski Jan", a part of either or of the PESEL are all one indexed ILIKE.
CREATE INDEX "patients_search_trgm_idx" ON "patients" USING gin (
  portal_unaccent("surname" || ' ' || "firstname" || ' ' || "surname" || ' ' || "pesel") gin_trgm_ops
);--> statement-breakpoint
CREATE INDEX "doctors_surname_trgm_idx" ON "doctors" USING gin (portal_unaccent("surname") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "units_name_trgm_idx" ON "units" USING gin (portal_unaccent("name") gin_trgm_ops);--> statement-breakpoint
-- A duplicate e-mail among active patients is refused like a taken PESEL (exist_patient).
CREATE UNIQUE INDEX "patients_email_lower_key" ON "patients" (lower("email"))
  WHERE "deleted_at" IS NULL AND "email" IS NOT NULL;
