-- Notifications (ADR 061, 062): the language a user's e-mails are written in, the user's e-mail
-- choices, the in-app notifications and the outbox of e-mails the job queue delivers.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "language" text DEFAULT 'pl' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_check" CHECK ("language" IN ('pl', 'en'));--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "notification_preferences" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id"),
	-- Where e-mails go when the account has no address of its own (administrators) or another one
	-- is wanted; null: the doctor's or patient's e-mail.
	"email_address" text,
	-- The kinds of event the user does not want by e-mail (in-app they always arrive).
	"email_off" text[] DEFAULT '{}' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_email_off_check" CHECK (
		"email_off" <@ ARRAY['safety_alert', 'kit_order', 'visit_reminder', 'unmatched_result', 'query_opened']::text[]
	),
	CONSTRAINT "notification_preferences_email_address_check" CHECK (
		"email_address" IS NULL OR "email_address" ~ '^[^@\s]+@[^@\s]+$'
	)
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "user_notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	-- The event's idempotency key: one notification per event and user, however often it is told.
	"event_key" text NOT NULL,
	"type" text NOT NULL,
	-- Ids and dates only (never a PESEL or a result); the web app writes the sentence.
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"patient_id" integer REFERENCES "patients"("id"),
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_notifications_type_check" CHECK (
		"type" IN ('safety_alert', 'kit_order', 'visit_reminder', 'unmatched_result', 'query_opened')
	)
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "user_notifications_event_user_key" ON "user_notifications" ("event_key", "user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_notifications_user_idx" ON "user_notifications" ("user_id", "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_notifications_unread_idx" ON "user_notifications" ("user_id") WHERE "read_at" IS NULL;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "notifications_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_key" text NOT NULL,
	"type" text NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"channel" text DEFAULT 'email' NOT NULL,
	"recipient" text NOT NULL,
	"language" text NOT NULL,
	"patient_id" integer REFERENCES "patients"("id"),
	-- What the message is built from when it is sent: ids, dates and the link, nothing more.
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	-- While `sending`: until when the claim holds; a claim past it was cut by a crash (ADR 061).
	"locked_until" timestamp with time zone,
	"last_error" text,
	-- Fixed when the row is written, so a message sent again after a crash carries the same id.
	"message_id" text NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_outbox_channel_check" CHECK ("channel" IN ('email')),
	CONSTRAINT "notifications_outbox_status_check" CHECK ("status" IN ('pending', 'sending', 'sent', 'failed')),
	CONSTRAINT "notifications_outbox_language_check" CHECK ("language" IN ('pl', 'en')),
	CONSTRAINT "notifications_outbox_attempts_check" CHECK ("attempts" >= 0),
	CONSTRAINT "notifications_outbox_sending_check" CHECK (("status" = 'sending') = ("locked_until" IS NOT NULL)),
	CONSTRAINT "notifications_outbox_sent_check" CHECK (("status" = 'sent') = ("sent_at" IS NOT NULL))
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "notifications_outbox_event_key" ON "notifications_outbox" ("event_key", "user_id", "channel");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "notifications_outbox_due_idx" ON "notifications_outbox" ("next_attempt_at")
  WHERE "status" IN ('pending', 'sending');--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "notifications_outbox_failed_idx" ON "notifications_outbox" ("id")
  WHERE "status" = 'failed';--> statement-breakpoint
CREATE TRIGGER user_notifications_audit AFTER INSERT OR UPDATE OR DELETE ON user_notifications
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id', 'params');--> statement-breakpoint
CREATE TRIGGER notifications_outbox_audit AFTER INSERT OR UPDATE OR DELETE ON notifications_outbox
  FOR EACH ROW EXECUTE FUNCTION audit_row('patient_id', 'payload,locked_until,next_attempt_at,attempts,message_id');
