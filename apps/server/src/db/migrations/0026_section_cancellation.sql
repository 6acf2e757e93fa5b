CREATE TABLE "reschedule_offers" (
	"enrollment_id" uuid PRIMARY KEY NOT NULL,
	"section_id" uuid NOT NULL,
	"student_id" text NOT NULL,
	"offered_at" timestamp with time zone NOT NULL,
	"open_until" timestamp with time zone NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "student_told" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "cancel_message" text;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "minimum_met_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "rescheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reschedule_offers" ADD CONSTRAINT "reschedule_offers_section_id_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reschedule_offers_student_idx" ON "reschedule_offers" USING btree ("student_id","open_until");--> statement-breakpoint
CREATE INDEX "reschedule_offers_section_idx" ON "reschedule_offers" USING btree ("section_id");--> statement-breakpoint
CREATE INDEX "sections_minimum_due_idx" ON "sections" USING btree ("enroll_closes_at") WHERE "sections"."status" = 'active' and "sections"."minimum" is not null and "sections"."minimum_met_at" is null;--> statement-breakpoint
-- Decision 052: no section could be cancelled before, but a row marked so by hand gets a reason.
UPDATE "sections" SET "cancelled_at" = "updated_at", "cancel_reason" = 'teacher' WHERE "status" = 'cancelled';--> statement-breakpoint
ALTER TABLE "sections" ADD CONSTRAINT "sections_cancelled" CHECK (("sections"."status" = 'cancelled') = ("sections"."cancelled_at" is not null and "sections"."cancel_reason" is not null));