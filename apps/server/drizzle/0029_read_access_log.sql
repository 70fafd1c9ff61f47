-- The read-access log (ADR 052): one entry per request that showed identified patient data.
-- Like audit_entries it can be added to, never changed or removed: the app role holds no
-- UPDATE, DELETE or TRUNCATE on it (src/db/roles.ts), and a trigger refuses them for every
-- role, so that PGlite (one user) keeps the rule too.
CREATE TABLE "access_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"address" text NOT NULL,
	"kind" text NOT NULL,
	"patient_ids" integer[] NOT NULL,
	CONSTRAINT "access_log_kind_check" CHECK ("kind" in ('patient_card', 'patient_tab', 'visit', 'probe', 'credentials', 'file', 'report', 'export', 'search', 'identity', 'audit')),
	CONSTRAINT "access_log_patients_check" CHECK (cardinality("patient_ids") > 0)
);
--> statement-breakpoint
-- Newest first by id; by user; by patient through the array (GIN), so "who saw this patient"
-- is an index probe; by time, to turn a date range into an id range like the audit trail.
CREATE INDEX "access_log_user_id_id_idx" ON "access_log" USING btree ("user_id", "id");
--> statement-breakpoint
CREATE INDEX "access_log_patient_ids_idx" ON "access_log" USING gin ("patient_ids");
--> statement-breakpoint
CREATE INDEX "access_log_at_idx" ON "access_log" USING btree ("at");
--> statement-breakpoint
CREATE FUNCTION access_log_immutable() RETURNS trigger LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RAISE EXCEPTION 'read-log entries can be added, never changed or removed'
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION access_log_immutable() FROM PUBLIC;
--> statement-breakpoint
CREATE TRIGGER access_log_no_change BEFORE UPDATE OR DELETE ON access_log
  FOR EACH ROW EXECUTE FUNCTION access_log_immutable();
--> statement-breakpoint
CREATE TRIGGER access_log_no_truncate BEFORE TRUNCATE ON access_log
  FOR EACH STATEMENT EXECUTE FUNCTION access_log_immutable();
--> statement-breakpoint
-- The data protection officer (IOD, ADR 053) signs in like an administrator and keeps an
-- admins row; monitors come from 0028.
ALTER TABLE "users" DROP CONSTRAINT "users_role_check";
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("role" in ('admin', 'doctor', 'patient', 'monitor', 'iod'));
