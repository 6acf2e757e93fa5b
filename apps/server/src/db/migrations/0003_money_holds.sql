CREATE TABLE "payment_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"gateway" text NOT NULL,
	"student_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"cart_ids" uuid[] NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"payment_id" uuid,
	"next_check_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_intents_status" CHECK ("payment_intents"."status" in ('open', 'succeeded', 'canceled', 'refund_pending', 'refunded'))
);
--> statement-breakpoint
ALTER TABLE "enrollments" ADD COLUMN "reserved_by" text;--> statement-breakpoint
ALTER TABLE "test_gateway_intents" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payment_intents_student_idx" ON "payment_intents" USING btree ("student_id","status");--> statement-breakpoint
CREATE INDEX "payment_intents_due_idx" ON "payment_intents" USING btree ("next_check_at") WHERE "payment_intents"."status" in ('open', 'refund_pending');