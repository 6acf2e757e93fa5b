ALTER TABLE "users" ADD COLUMN "notify_teacher_application" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notify_class_reviews" boolean DEFAULT true NOT NULL;