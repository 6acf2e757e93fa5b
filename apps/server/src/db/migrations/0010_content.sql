CREATE TABLE "class_materials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"class_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"url" text,
	"file_key" text,
	"file_name" text,
	"content_type" text,
	"bytes" integer,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_materials_link_or_file" CHECK (("class_materials"."url" is null) <> ("class_materials"."file_key" is null)),
	CONSTRAINT "class_materials_url_https" CHECK ("class_materials"."url" is null or "class_materials"."url" like 'https://%')
);
--> statement-breakpoint
CREATE TABLE "class_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"class_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"duration_minutes" integer NOT NULL,
	"meeting_url" text,
	"location" text,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_sessions_duration" CHECK ("class_sessions"."duration_minutes" between 1 and 1440),
	CONSTRAINT "class_sessions_meeting_https" CHECK ("class_sessions"."meeting_url" is null or "class_sessions"."meeting_url" like 'https://%'),
	CONSTRAINT "class_sessions_place" CHECK ("class_sessions"."meeting_url" is not null or "class_sessions"."location" is not null)
);
--> statement-breakpoint
CREATE TABLE "material_completions" (
	"material_id" uuid NOT NULL,
	"student_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "material_completions_material_id_student_id_pk" PRIMARY KEY("material_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "session_attendance" (
	"session_id" uuid NOT NULL,
	"student_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_attendance_session_id_student_id_pk" PRIMARY KEY("session_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "session_reminders" (
	"session_id" uuid NOT NULL,
	"student_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "session_reminders_session_id_student_id_starts_at_pk" PRIMARY KEY("session_id","student_id","starts_at")
);
--> statement-breakpoint
ALTER TABLE "class_materials" ADD CONSTRAINT "class_materials_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_completions" ADD CONSTRAINT "material_completions_material_id_class_materials_id_fk" FOREIGN KEY ("material_id") REFERENCES "public"."class_materials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_completions" ADD CONSTRAINT "material_completions_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_attendance" ADD CONSTRAINT "session_attendance_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_attendance" ADD CONSTRAINT "session_attendance_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_reminders" ADD CONSTRAINT "session_reminders_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_reminders" ADD CONSTRAINT "session_reminders_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_materials_class_idx" ON "class_materials" USING btree ("class_id","position");--> statement-breakpoint
CREATE INDEX "class_materials_file_idx" ON "class_materials" USING btree ("file_key");--> statement-breakpoint
CREATE INDEX "class_sessions_class_idx" ON "class_sessions" USING btree ("class_id","position");--> statement-breakpoint
CREATE INDEX "class_sessions_published_start_idx" ON "class_sessions" USING btree ("starts_at") WHERE "class_sessions"."published_at" is not null;--> statement-breakpoint
CREATE INDEX "material_completions_student_idx" ON "material_completions" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "session_attendance_student_idx" ON "session_attendance" USING btree ("student_id");