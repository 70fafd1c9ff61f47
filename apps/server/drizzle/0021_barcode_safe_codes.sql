-- Barcode-safe sample codes (issue 20, ADR 035): ASCII letters, digits and "-", 1 to 32
-- characters, so that the DataMatrix, the printed text, a scanner and the database hold the same
-- bytes. Codes made before this migration may be anything up to 64 characters and may already be
-- printed on tubes: they stay as they are and are marked `legacy_code`. (A CHECK … NOT VALID
-- would not do: PostgreSQL checks it on every UPDATE of an old row, so receiving an old sample or
-- storing its results would fail.) New rows leave `legacy_code` null.
ALTER TABLE "probes" ADD COLUMN IF NOT EXISTS "legacy_code" boolean;--> statement-breakpoint
-- Old codes that break the rule, and old codes that differ from another only in letter case
-- (the index below could not be built over them; the reception finds codes without case).
UPDATE "probes" SET "legacy_code" = true
WHERE "code" !~ '^[A-Za-z0-9-]{1,32}$'
   OR lower("code") IN (SELECT lower("code") FROM "probes" GROUP BY 1 HAVING count(*) > 1);--> statement-breakpoint
ALTER TABLE "probes" ADD CONSTRAINT "probes_code_safe_check"
  CHECK ("legacy_code" IS TRUE OR "code" ~ '^[A-Za-z0-9-]{1,32}$');--> statement-breakpoint
-- Only a migration marks a code as old: true or nothing.
ALTER TABLE "probes" ADD CONSTRAINT "probes_legacy_code_check" CHECK ("legacy_code");--> statement-breakpoint
-- One sample per code whatever the letter case, so a scanner sending "kfdc…" for "KFDC…" can
-- never find two samples.
CREATE UNIQUE INDEX IF NOT EXISTS "probes_code_lower_key" ON "probes" (lower("code"))
  WHERE "legacy_code" IS NULL;--> statement-breakpoint
-- How the reception finds a scan and how a new code is checked against the old ones: the code
-- without case, accents and anything but letters, digits and "-" (probe-number.ts looseCodeKey).
CREATE INDEX IF NOT EXISTS "probes_code_loose_idx" ON "probes" (
  lower(regexp_replace(portal_unaccent("code"), '[^A-Za-z0-9-]+', '', 'g'))
);
