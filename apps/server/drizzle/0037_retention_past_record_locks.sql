-- Retention (ADR 059) removes the copies of a patient's identity that a locked sample carries
-- (the name and address the order was written for). They are not the locked clinical content
-- (ADR 048): an UPDATE under the audit source `retention` that changes identity columns only
-- (portal_identity_column, migration 0032) passes a record lock; any other change still fails.
CREATE OR REPLACE FUNCTION refuse_locked_record() RETURNS trigger LANGUAGE plpgsql
  SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM record_locks WHERE record_type = TG_ARGV[0] AND record_id = OLD.id) THEN
    IF TG_OP = 'UPDATE' AND current_setting('app.source', true) = 'retention' AND NOT EXISTS (
      SELECT 1 FROM jsonb_each(to_jsonb(NEW)) n JOIN jsonb_each(to_jsonb(OLD)) o USING (key)
       WHERE n.value IS DISTINCT FROM o.value AND NOT portal_identity_column(TG_TABLE_NAME, n.key))
    THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'record_locked' USING ERRCODE = 'P0001', HINT = 'record_locked';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
