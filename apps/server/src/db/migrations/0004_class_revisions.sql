CREATE TYPE "public"."class_revision_status" AS ENUM('pending', 'approved', 'rejected');--> statement-breakpoint
CREATE TABLE "class_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"class_id" uuid NOT NULL,
	"title" text,
	"description" text,
	"price_cents" integer,
	"image_key" text,
	"category" "category",
	"status" "class_revision_status" DEFAULT 'pending' NOT NULL,
	"rejection_reason" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_revisions_price_range" CHECK ("class_revisions"."price_cents" is null or "class_revisions"."price_cents" between 50 and 1000000)
);
--> statement-breakpoint
ALTER TABLE "class_revisions" ADD CONSTRAINT "class_revisions_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_revisions" ADD CONSTRAINT "class_revisions_image_key_uploads_key_fk" FOREIGN KEY ("image_key") REFERENCES "public"."uploads"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_revisions" ADD CONSTRAINT "class_revisions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "class_revisions_one_pending_idx" ON "class_revisions" USING btree ("class_id") WHERE "class_revisions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "class_revisions_class_created_idx" ON "class_revisions" USING btree ("class_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "class_revisions_status_created_idx" ON "class_revisions" USING btree ("status","created_at");