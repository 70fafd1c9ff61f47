-- The audit trail is written by the database itself, so that no code path can skip it.
-- One entry per changed column; the acting user comes from the transaction-local setting
-- app.user_id (set as the first statement of every writing transaction).
-- Arguments: TG_ARGV[0] = the column holding the patient's id ("id" on patients),
--            TG_ARGV[1] = optional comma-separated columns never copied (file contents).
CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END;
  new_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) END;
  ref jsonb := coalesce(new_row, old_row);
  actor integer := nullif(current_setting('app.user_id', true), '')::integer;
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
      (user_id, patient_id, entity_name, entity_id, operation, column_name, old_value, new_value)
    VALUES (
      actor,
      (ref ->> TG_ARGV[0])::integer,
      TG_TABLE_NAME,
      coalesce(ref ->> 'id', ref ->> 'patient_id'),
      lower(TG_OP),
      col,
      old_row ->> col,
      new_row ->> col
    );
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION audit_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit entries can be added, never changed or removed'
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_entries_no_change BEFORE UPDATE OR DELETE ON audit_entries
  FOR EACH ROW EXECUTE FUNCTION audit_entries_immutable();
--> statement-breakpoint
CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_immutable();
--> statement-breakpoint
CREATE TRIGGER patients_audit AFTER INSERT OR UPDATE OR DELETE ON patients
  FOR EACH ROW EXECUTE FUNCTION audit_row('id');
--> statement-breakpoint
CREATE TRIGGER patient_inclusions_audit AFTER INSERT OR UPDATE OR DELETE ON patient_inclusions
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');
--> statement-breakpoint
CREATE TRIGGER patient_medicines_audit AFTER INSERT OR UPDATE OR DELETE ON patient_medicines
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');
--> statement-breakpoint
CREATE TRIGGER patient_additional_medicines_audit
  AFTER INSERT OR UPDATE OR DELETE ON patient_additional_medicines
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');
--> statement-breakpoint
CREATE TRIGGER notes_audit AFTER INSERT OR UPDATE OR DELETE ON notes
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');
--> statement-breakpoint
CREATE TRIGGER files_audit AFTER INSERT OR UPDATE OR DELETE ON files
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id', 'content');
--> statement-breakpoint
CREATE TRIGGER messages_audit AFTER INSERT OR UPDATE OR DELETE ON messages
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');
