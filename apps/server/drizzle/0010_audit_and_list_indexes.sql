-- Indexes for every filter and sort that the audit trail, units, doctors and admins lists offer
-- (issue 8, ADR 022). Plain CREATE INDEX: migrations run in one transaction at start, before the
-- server listens, where CONCURRENTLY is impossible and nothing waits for the lock; on 3.8 million
-- audit entries each audit index takes about 3.5 s. An operator with a larger trail may create
-- them CONCURRENTLY beforehand under the same names (IF NOT EXISTS then skips them).
--
-- Audit filters by patient and by acting user, newest first: (key, id) serves both the filter and
-- the order, so that one patient's or doctor's page is an index range read backwards. They
-- replace the single-column indexes of 0001, which they cover.
CREATE INDEX IF NOT EXISTS "audit_entries_patient_id_id_idx" ON "audit_entries" USING btree ("patient_id", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_entries_user_id_id_idx" ON "audit_entries" USING btree ("user_id", "id");--> statement-breakpoint
DROP INDEX IF EXISTS "audit_entries_patient_id_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "audit_entries_user_id_idx";--> statement-breakpoint
-- (audit_entries_updated_at_idx of 0001 stays: it translates a day range into an id range.)
--
-- Units: sorted by name; searched in name, street, city and postcode as one text, like patients.
CREATE INDEX IF NOT EXISTS "units_name_id_idx" ON "units" USING btree ("name", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "units_search_trgm_idx" ON "units" USING gin (
  portal_unaccent("name" || ' ' || "street" || ' ' || "city" || ' ' || "postcode") gin_trgm_ops
);--> statement-breakpoint
-- Doctors: sorted by surname, e-mail or phone number (by unit: units_name_id_idx); searched in
-- names, e-mail and phone number as one text (and in the unit's name, units_name_trgm_idx).
CREATE INDEX IF NOT EXISTS "doctors_surname_id_idx" ON "doctors" USING btree ("surname", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "doctors_email_id_idx" ON "doctors" USING btree ("email", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "doctors_phone_number_id_idx" ON "doctors" USING btree ("phone_number", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "doctors_search_trgm_idx" ON "doctors" USING gin (
  portal_unaccent("firstname" || ' ' || "surname" || ' ' || "email" || ' ' || "phone_number") gin_trgm_ops
);--> statement-breakpoint
-- Administrators: sorted and searched by login (users of every role share the table).
CREATE INDEX IF NOT EXISTS "users_login_id_idx" ON "users" USING btree ("login", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_login_trgm_idx" ON "users" USING gin (portal_unaccent("login") gin_trgm_ops);
