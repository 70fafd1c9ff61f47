CREATE TABLE "audit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"patient_id" integer,
	"entity_name" text NOT NULL,
	"entity_id" text,
	"operation" text NOT NULL,
	"column_name" text NOT NULL,
	"old_value" text,
	"new_value" text
);
--> statement-breakpoint
CREATE TABLE "exclusion_criteria" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" serial PRIMARY KEY NOT NULL,
	"ref_type" text NOT NULL,
	"ref_id" integer NOT NULL,
	"patient_id" integer,
	"original_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"comment" text,
	"uploaded_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inclusion_criteria_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"nr" integer NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inclusion_criteria_subgroups" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"medicines" text NOT NULL,
	"doses" numeric[] NOT NULL,
	"is_fixed_dose" smallint NOT NULL,
	"allow_custom_interval" smallint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "medicines" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"inn" text NOT NULL,
	"cas" text NOT NULL,
	"doses" numeric[] NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL,
	"sender_user_id" integer NOT NULL,
	"receiver_user_id" integer NOT NULL,
	"content" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"ref_type" text NOT NULL,
	"ref_id" integer NOT NULL,
	"patient_id" integer,
	"content" text NOT NULL,
	"author_user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_additional_medicines" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL,
	"name" text NOT NULL,
	"dose" numeric NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_inclusions" (
	"patient_id" integer PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"subgroup_id" integer,
	"dose" numeric,
	"interval" text
);
--> statement-breakpoint
CREATE TABLE "patient_medicines" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL,
	"medicine_id" integer NOT NULL,
	"dose" numeric
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"firstname" text NOT NULL,
	"surname" text NOT NULL,
	"pesel" text NOT NULL,
	"sex" text NOT NULL,
	"birth_date" date NOT NULL,
	"address_street" text,
	"address_building" text,
	"address_apartment" text,
	"address_postcode" text,
	"address_city" text,
	"phone_number" text NOT NULL,
	"email" text,
	"weight" numeric,
	"height" numeric,
	"project_number" text,
	"is_above_18" boolean DEFAULT true NOT NULL,
	"is_classified" boolean DEFAULT false NOT NULL,
	"is_finished" boolean DEFAULT false NOT NULL,
	"acceptance" boolean NOT NULL,
	"exclusion_criteria_id" integer,
	"doctor_id" integer NOT NULL,
	"unit_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "patients_pesel_check" CHECK ("patients"."pesel" ~ '^[0-9]{11}$'),
	CONSTRAINT "patients_phone_number_check" CHECK ("patients"."phone_number" ~ '^[0-9]{9}$'),
	CONSTRAINT "patients_sex_check" CHECK ("patients"."sex" in ('M', 'K')),
	CONSTRAINT "patients_acceptance_check" CHECK ("patients"."acceptance")
);
--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inclusion_criteria_subgroups" ADD CONSTRAINT "inclusion_criteria_subgroups_group_id_inclusion_criteria_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."inclusion_criteria_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_user_id_users_id_fk" FOREIGN KEY ("sender_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_receiver_user_id_users_id_fk" FOREIGN KEY ("receiver_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_additional_medicines" ADD CONSTRAINT "patient_additional_medicines_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_inclusions" ADD CONSTRAINT "patient_inclusions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_inclusions" ADD CONSTRAINT "patient_inclusions_group_id_inclusion_criteria_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."inclusion_criteria_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_inclusions" ADD CONSTRAINT "patient_inclusions_subgroup_id_inclusion_criteria_subgroups_id_fk" FOREIGN KEY ("subgroup_id") REFERENCES "public"."inclusion_criteria_subgroups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_medicines" ADD CONSTRAINT "patient_medicines_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_medicines" ADD CONSTRAINT "patient_medicines_medicine_id_medicines_id_fk" FOREIGN KEY ("medicine_id") REFERENCES "public"."medicines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_exclusion_criteria_id_exclusion_criteria_id_fk" FOREIGN KEY ("exclusion_criteria_id") REFERENCES "public"."exclusion_criteria"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_doctor_id_doctors_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_entries_patient_id_idx" ON "audit_entries" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "audit_entries_user_id_idx" ON "audit_entries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "audit_entries_updated_at_idx" ON "audit_entries" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "files_ref_idx" ON "files" USING btree ("ref_type","ref_id");--> statement-breakpoint
CREATE INDEX "inclusion_criteria_subgroups_group_id_idx" ON "inclusion_criteria_subgroups" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "messages_patient_id_idx" ON "messages" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "notes_ref_idx" ON "notes" USING btree ("ref_type","ref_id");--> statement-breakpoint
CREATE INDEX "patient_additional_medicines_patient_id_idx" ON "patient_additional_medicines" USING btree ("patient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "patient_medicines_patient_medicine_key" ON "patient_medicines" USING btree ("patient_id","medicine_id");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_pesel_key" ON "patients" USING btree ("pesel");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_user_id_key" ON "patients" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "patients_unit_id_idx" ON "patients" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "patients_doctor_id_idx" ON "patients" USING btree ("doctor_id");