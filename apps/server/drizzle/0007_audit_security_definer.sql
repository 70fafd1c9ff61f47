-- The app may connect as a role that cannot write audit_entries (README: database roles; ADR 015).
-- The audit trigger functions therefore run as their owner, the migration role. A SECURITY
-- DEFINER function must not resolve names through the caller's search_path: pg_catalog first,
-- the portal's schema next and the caller's temporary schema last, so that a temporary table
-- named audit_entries cannot catch the entries.
ALTER FUNCTION audit_row() SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp;
--> statement-breakpoint
ALTER FUNCTION audit_entries_immutable() SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp;
--> statement-breakpoint
-- Trigger functions cannot be called directly anyway; nobody but the owner needs EXECUTE.
REVOKE ALL ON FUNCTION audit_row() FROM PUBLIC;
--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_entries_immutable() FROM PUBLIC;
