-- Kit orders and their shipments, and announcements (issue 11, docs/product-rules.md "Shipments";
-- docs/api-conventions.md "Probe set", "Announcements"; ADR 031).
-- An order of home-sampling kits for a patient. Status 0 registered, 1 accepted, 2 rejected
-- (docs/product-rules.md "Records and their states"); only a registered order is decided, and a
-- rejection carries its reason.
CREATE TABLE IF NOT EXISTS "probe_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL REFERENCES "patients"("id"),
	-- How many kits (sub-sets) and how many labels to print for each sample.
	"amount" integer NOT NULL,
	"labels_amount" integer DEFAULT 1 NOT NULL,
	-- The delivery address (the patient's by default; a copy, as the order is a document).
	"street" text NOT NULL,
	"building" text NOT NULL,
	"postcode" text NOT NULL,
	"city" text NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"reason" text,
	"decided_at" timestamp with time zone,
	"decided_by" integer REFERENCES "users"("id"),
	-- Who ordered: a staff member or the patient through the patient API.
	"ordered_by" integer REFERENCES "users"("id"),
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "probe_sets_amount_check" CHECK ("amount" BETWEEN 1 AND 20),
	CONSTRAINT "probe_sets_labels_amount_check" CHECK ("labels_amount" BETWEEN 0 AND 10),
	CONSTRAINT "probe_sets_status_check" CHECK ("status" IN (0, 1, 2)),
	CONSTRAINT "probe_sets_reason_check" CHECK (
		("status" = 2) = ("reason" IS NOT NULL AND length(btrim("reason")) > 0)
	),
	CONSTRAINT "probe_sets_address_check" CHECK (
		length("street") BETWEEN 1 AND 255 AND length("building") BETWEEN 1 AND 255
		AND length("postcode") BETWEEN 1 AND 255 AND length("city") BETWEEN 1 AND 255
	)
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probe_sets_created_at_id_idx" ON "probe_sets" ("created_at", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probe_sets_patient_id_id_idx" ON "probe_sets" ("patient_id", "id");--> statement-breakpoint
CREATE TRIGGER probe_sets_audit AFTER INSERT OR UPDATE OR DELETE ON probe_sets
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id');--> statement-breakpoint
-- One kit of an order, sent under its own waybill. Made with the order (kit_number 1..amount).
CREATE TABLE IF NOT EXISTS "probe_set_kits" (
	"id" serial PRIMARY KEY NOT NULL,
	"probe_set_id" integer NOT NULL REFERENCES "probe_sets"("id") ON DELETE CASCADE,
	-- The order's patient, kept here so the audit trail files every change under the patient.
	"patient_id" integer NOT NULL REFERENCES "patients"("id"),
	"kit_number" integer NOT NULL,
	"tracking_code" text,
	-- The provider's newest event and its time; kept when the provider fails.
	"last_status" text,
	"last_status_date" timestamp with time zone,
	"delivered" boolean DEFAULT false NOT NULL,
	"last_checked_at" timestamp with time zone,
	"last_error" text,
	-- A refresh in progress holds the kit until then (two servers never ask twice; a crashed
	-- refresh lets go when it passes).
	"refreshing_until" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "probe_set_kits_number_key" UNIQUE ("probe_set_id", "kit_number"),
	CONSTRAINT "probe_set_kits_kit_number_check" CHECK ("kit_number" >= 1),
	-- Waybill numbers are letters and digits (Poczta Polska: 13 to 20 characters and S10 codes).
	CONSTRAINT "probe_set_kits_tracking_code_check" CHECK ("tracking_code" ~ '^[A-Z0-9]{4,40}$')
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probe_set_kits_to_refresh_idx" ON "probe_set_kits" ("id")
  WHERE "tracking_code" IS NOT NULL AND NOT "delivered";--> statement-breakpoint
-- The refresh bookkeeping is not patient data; the waybill and every status change are.
CREATE TRIGGER probe_set_kits_audit AFTER INSERT OR UPDATE OR DELETE ON probe_set_kits
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id', 'refreshing_until,last_checked_at');--> statement-breakpoint
-- The provider's tracking history of a kit (what the post reported, oldest first).
CREATE TABLE IF NOT EXISTS "shipment_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"kit_id" integer NOT NULL REFERENCES "probe_set_kits"("id") ON DELETE CASCADE,
	"status" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"place" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipment_events_key" UNIQUE ("kit_id", "occurred_at", "status")
);--> statement-breakpoint
-- A sample drawn at home with a kit of an order: the probe shows that kit's shipment.
ALTER TABLE "probes" ADD COLUMN IF NOT EXISTS "probe_set_kit_id" integer REFERENCES "probe_set_kits"("id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "probes_probe_set_kit_id_idx" ON "probes" ("probe_set_kit_id")
  WHERE "probe_set_kit_id" IS NOT NULL;--> statement-breakpoint
-- Announcements to every patient (docs/product-rules.md "Records and their states"); sender a
-- doctor or an administrator. Not patient data, so not in the audit trail.
CREATE TABLE IF NOT EXISTS "global_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"content" text NOT NULL,
	"sender_user_id" integer NOT NULL REFERENCES "users"("id"),
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "global_messages_content_check" CHECK (length("content") BETWEEN 1 AND 100000)
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "global_messages_created_at_id_idx" ON "global_messages" ("created_at", "id");--> statement-breakpoint
-- Who has read an announcement ("Przeczytane przez: N"): one row per reader.
CREATE TABLE IF NOT EXISTS "global_message_reads" (
	"message_id" integer NOT NULL REFERENCES "global_messages"("id") ON DELETE CASCADE,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "global_message_reads_pkey" PRIMARY KEY ("message_id", "user_id")
);
