-- Unit calendar rules (issue 9 item 2, ADR 025): a rule opens ('enabled') or closes ('disabled')
-- the hours from started_at to ended_at of a unit on its date, or on every date of that ISO
-- weekday when is_global. The database itself refuses an end before the start, another type, a
-- missing unit and an exact duplicate, whatever code path writes.
CREATE TABLE IF NOT EXISTS "unit_calendar_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"unit_id" integer NOT NULL REFERENCES "units"("id"),
	"date" date NOT NULL,
	"started_at" time NOT NULL,
	"ended_at" time NOT NULL,
	"type" text NOT NULL,
	"is_global" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "unit_calendar_rules_type_check" CHECK ("type" in ('enabled', 'disabled')),
	CONSTRAINT "unit_calendar_rules_ended_at_check" CHECK ("ended_at" >= "started_at")
);--> statement-breakpoint
-- A date's rules (get_by_filters, the month's counts, the slot function).
CREATE INDEX IF NOT EXISTS "unit_calendar_rules_unit_id_date_idx" ON "unit_calendar_rules" USING btree ("unit_id", "date");--> statement-breakpoint
-- A unit's global (weekday) rules: few, read with every day and month.
CREATE INDEX IF NOT EXISTS "unit_calendar_rules_unit_id_is_global_idx" ON "unit_calendar_rules" USING btree ("unit_id", "is_global");--> statement-breakpoint
-- An exact duplicate is refused (docs/product-rules.md "Work hours and slots"): the same hours and
-- operation on the same date, or, for global rules, on the same weekday (whichever date of it they
-- were made from).
CREATE UNIQUE INDEX IF NOT EXISTS "unit_calendar_rules_date_key" ON "unit_calendar_rules" USING btree ("unit_id", "date", "started_at", "ended_at", "type") WHERE NOT "is_global";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "unit_calendar_rules_weekday_key" ON "unit_calendar_rules" USING btree ("unit_id", (extract(isodow from "date")), "started_at", "ended_at", "type") WHERE "is_global";
