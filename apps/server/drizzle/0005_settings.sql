-- Typed settings (ADR 010): a version for optimistic locking, the sealed secret apart from the
-- value, and who saved last. The job queue's tables are created by pg-boss itself (ADR 009).
ALTER TABLE "settings" ADD COLUMN "secret" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "updated_by" integer;--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
