-- What wrote a change when no person did, or how a person did (ADR 042): the laboratory's HL7
-- messages, the results import, the patients import, a flush or restore of imports, the shipment
-- tracking job, a manual match of an unmatched result. The writing transaction names it like the
-- actor, transaction-local (set_config('app.source', …, true); markAuditSource in db/client.ts),
-- and audit_row() copies it into each entry. Only the known sources are accepted: a misspelt one
-- fails the write instead of writing an entry nobody can read. Everything else audit_row() does
-- stays as it was (0002).
ALTER TABLE "audit_entries" ADD COLUMN IF NOT EXISTS "source" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_source_check"
  CHECK ("source" in ('hl7', 'import', 'patient_import', 'flush', 'restore', 'tracking', 'manual_match'));--> statement-breakpoint
-- CREATE OR REPLACE keeps the owner and the grants (0007: none for PUBLIC) but resets what the
-- definition leaves out, so SECURITY DEFINER and the search_path are repeated here.
CREATE OR REPLACE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  old_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END;
  new_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) END;
  ref jsonb := coalesce(new_row, old_row);
  actor integer := nullif(current_setting('app.user_id', true), '')::integer;
  origin text := nullif(current_setting('app.source', true), '');
  skipped text[] := ARRAY['created_at', 'updated_at']
    || CASE WHEN TG_NARGS > 1 THEN string_to_array(TG_ARGV[1], ',') ELSE ARRAY[]::text[] END;
  col text;
BEGIN
  FOR col IN SELECT jsonb_object_keys(ref) LOOP
    CONTINUE WHEN col = ANY (skipped);
    CONTINUE WHEN TG_OP = 'UPDATE' AND (old_row -> col) IS NOT DISTINCT FROM (new_row -> col);
    CONTINUE WHEN TG_OP = 'INSERT' AND jsonb_typeof(new_row -> col) = 'null';
    CONTINUE WHEN TG_OP = 'DELETE' AND jsonb_typeof(old_row -> col) = 'null';
    INSERT INTO audit_entries
      (user_id, patient_id, entity_name, entity_id, operation, column_name, old_value, new_value,
       source)
    VALUES (
      actor,
      (ref ->> TG_ARGV[0])::integer,
      TG_TABLE_NAME,
      coalesce(ref ->> 'id', ref ->> 'patient_id'),
      lower(TG_OP),
      col,
      old_row ->> col,
      new_row ->> col,
      origin
    );
  END LOOP;
  RETURN NULL;
END
$$;
