-- Optimistic locking (ADR 018): every editable record carries a version that an edit must name;
-- the service bumps it with `version = version + 1 WHERE id = $1 AND version = $2`, so that of two
-- simultaneous edits of one version exactly one wins and the other answers 409 conflict.
ALTER TABLE "patients" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- The version is bookkeeping, not patient data: the audit trail skips it like updated_at. The
-- triggers' second argument lists the skipped columns, so audit_row() itself stays as it is.
DROP TRIGGER "patients_audit" ON "patients";--> statement-breakpoint
CREATE TRIGGER patients_audit AFTER INSERT OR UPDATE OR DELETE ON patients
  FOR EACH ROW EXECUTE FUNCTION audit_row('id', 'version');--> statement-breakpoint
DROP TRIGGER "notes_audit" ON "notes";--> statement-breakpoint
CREATE TRIGGER notes_audit AFTER INSERT OR UPDATE OR DELETE ON notes
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id', 'version');--> statement-breakpoint
DROP TRIGGER "messages_audit" ON "messages";--> statement-breakpoint
CREATE TRIGGER messages_audit AFTER INSERT OR UPDATE OR DELETE ON messages
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id', 'version');
