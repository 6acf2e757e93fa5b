CREATE TYPE "public"."section_status" AS ENUM('active', 'cancelled');
--> statement-breakpoint
CREATE TABLE "sections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"class_id" uuid NOT NULL,
	"time_zone" text NOT NULL,
	"capacity" integer,
	"minimum" integer,
	"enroll_opens_at" timestamp with time zone,
	"enroll_closes_at" timestamp with time zone,
	"status" "section_status" DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sections_capacity" CHECK ("sections"."capacity" is null or "sections"."capacity" between 1 and 10000),
	CONSTRAINT "sections_minimum" CHECK ("sections"."minimum" is null or ("sections"."minimum" >= 1 and "sections"."minimum" <= coalesce("sections"."capacity", 10000))),
	CONSTRAINT "sections_window" CHECK ("sections"."enroll_opens_at" is null or "sections"."enroll_closes_at" is null or "sections"."enroll_opens_at" < "sections"."enroll_closes_at")
);
--> statement-breakpoint
ALTER TABLE "class_sessions" ADD COLUMN "section_id" uuid;
--> statement-breakpoint
ALTER TABLE "enrollments" ADD COLUMN "section_id" uuid;
--> statement-breakpoint
-- Hand-written (decision 041): every class with sessions gets one section holding them, in the zone
-- of its first session and with no seat limit (what it sold before); its enrollments point to it.
INSERT INTO "sections" ("class_id", "time_zone", "created_at", "updated_at")
SELECT DISTINCT ON ("class_id") "class_id", "time_zone", "created_at", "created_at"
FROM "class_sessions" ORDER BY "class_id", "position", "created_at";
--> statement-breakpoint
UPDATE "class_sessions" AS s SET "section_id" = x."id" FROM "sections" AS x WHERE x."class_id" = s."class_id";
--> statement-breakpoint
UPDATE "enrollments" AS e SET "section_id" = x."id" FROM "sections" AS x WHERE x."class_id" = e."class_id";
--> statement-breakpoint
ALTER TABLE "class_sessions" ALTER COLUMN "section_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "sections" ADD CONSTRAINT "sections_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "sections_class_idx" ON "sections" USING btree ("class_id","created_at");
--> statement-breakpoint
ALTER TABLE "class_sessions" ADD CONSTRAINT "class_sessions_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "class_sessions_section_start_idx" ON "class_sessions" USING btree ("section_id","starts_at");
--> statement-breakpoint
CREATE INDEX "enrollments_section_idx" ON "enrollments" USING btree ("section_id","status") WHERE "enrollments"."section_id" is not null;