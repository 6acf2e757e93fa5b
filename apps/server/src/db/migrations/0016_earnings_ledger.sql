CREATE TABLE "connected_accounts" (
	"teacher_id" text PRIMARY KEY NOT NULL,
	"gateway" text NOT NULL,
	"account_id" text NOT NULL,
	"payouts_enabled" integer DEFAULT 0 NOT NULL,
	"details_submitted" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connected_accounts_account_id_unique" UNIQUE("account_id")
);
--> statement-breakpoint
CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gateway_dispute_id" text NOT NULL,
	"payment_id" uuid NOT NULL,
	"transaction_id" text NOT NULL,
	"enrollment_ids" uuid[] NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"gateway_status" text NOT NULL,
	"evidence_due_by" timestamp with time zone,
	"evidence" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "disputes_gateway_dispute_id_unique" UNIQUE("gateway_dispute_id")
);
--> statement-breakpoint
CREATE TABLE "earning_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"enrollment_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"transaction_id" text NOT NULL,
	"teacher_id" text NOT NULL,
	"class_id" uuid NOT NULL,
	"title" text NOT NULL,
	"student_initials" text NOT NULL,
	"currency" text NOT NULL,
	"list_cents" integer NOT NULL,
	"discount_cents" integer NOT NULL,
	"coupon_source" text,
	"gross_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"share_cents" integer NOT NULL,
	"fee_basis_points" integer NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"frozen_by" uuid,
	"refunded_at" timestamp with time zone,
	"clawback_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "earning_lines_enrollment_id_unique" UNIQUE("enrollment_id"),
	CONSTRAINT "earning_lines_split" CHECK ("earning_lines"."gross_cents" = "earning_lines"."fee_cents" + "earning_lines"."share_cents"),
	CONSTRAINT "earning_lines_positive" CHECK ("earning_lines"."fee_cents" >= 0 and "earning_lines"."share_cents" >= 0 and "earning_lines"."list_cents" >= "earning_lines"."gross_cents"),
	CONSTRAINT "earning_lines_clawback" CHECK ("earning_lines"."clawback_cents" between 0 and "earning_lines"."share_cents")
);
--> statement-breakpoint
CREATE TABLE "earning_tranches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"line_id" uuid NOT NULL,
	"teacher_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"session_id" uuid,
	"state" text DEFAULT 'pending' NOT NULL,
	"released_at" timestamp with time zone,
	"payout_id" uuid,
	CONSTRAINT "earning_tranches_amount" CHECK ("earning_tranches"."amount_cents" >= 0),
	CONSTRAINT "earning_tranches_state" CHECK ("earning_tranches"."state" in ('pending', 'released', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"teacher_id" text NOT NULL,
	"kind" text NOT NULL,
	"line_id" uuid,
	"payout_id" uuid,
	"dispute_id" uuid,
	"pending_cents" integer DEFAULT 0 NOT NULL,
	"available_cents" integer DEFAULT 0 NOT NULL,
	"frozen_cents" integer DEFAULT 0 NOT NULL,
	"paid_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_entries_kind" CHECK ("ledger_entries"."kind" in ('share', 'release', 'refund', 'freeze', 'unfreeze', 'dispute_lost', 'payout', 'payout_failed', 'payout_reversed'))
);
--> statement-breakpoint
CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"currency" text NOT NULL,
	"created_by" text NOT NULL,
	"paid_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payout_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payout_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"transaction_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"transfer_id" text,
	"reversed_cents" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "payout_items_amount" CHECK ("payout_items"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "payout_runs" (
	"period" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"teacher_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"recovered_cents" integer DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"status" text NOT NULL,
	"gateway" text,
	"account_id" text,
	"batch_id" uuid,
	"attempts" integer DEFAULT 1 NOT NULL,
	"failure_reason" text,
	"next_check_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_amount" CHECK ("payouts"."amount_cents" > 0 and "payouts"."recovered_cents" >= 0),
	CONSTRAINT "payouts_status" CHECK ("payouts"."status" in ('in_flight', 'manual', 'paid', 'failed', 'reversed'))
);
--> statement-breakpoint
CREATE TABLE "teacher_balances" (
	"teacher_id" text PRIMARY KEY NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"pending_cents" integer DEFAULT 0 NOT NULL,
	"available_cents" integer DEFAULT 0 NOT NULL,
	"frozen_cents" integer DEFAULT 0 NOT NULL,
	"paid_cents" integer DEFAULT 0 NOT NULL,
	"shares_cents" integer DEFAULT 0 NOT NULL,
	"clawbacks_cents" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teacher_balances_sum" CHECK ("teacher_balances"."shares_cents" - "teacher_balances"."clawbacks_cents" = "teacher_balances"."pending_cents" + "teacher_balances"."available_cents" + "teacher_balances"."frozen_cents" + "teacher_balances"."paid_cents")
);
--> statement-breakpoint
CREATE TABLE "teacher_fee_rates" (
	"teacher_id" text PRIMARY KEY NOT NULL,
	"basis_points" integer NOT NULL,
	"set_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teacher_fee_rates_range" CHECK ("teacher_fee_rates"."basis_points" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "test_gateway_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_ref" text NOT NULL,
	"payouts_enabled" text DEFAULT 'false' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_gateway_accounts_owner_ref_unique" UNIQUE("owner_ref")
);
--> statement-breakpoint
CREATE TABLE "test_gateway_disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"intent_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"evidence_due_by" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_gateway_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"transfer_group" text NOT NULL,
	"source_transaction" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"reversed_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_gateway_transfers_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "earning_tranches" ADD CONSTRAINT "earning_tranches_line_id_earning_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."earning_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disputes_status_idx" ON "disputes" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "earning_lines_teacher_paid_idx" ON "earning_lines" USING btree ("teacher_id","paid_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "earning_lines_payment_idx" ON "earning_lines" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "earning_lines_transaction_idx" ON "earning_lines" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "earning_lines_paid_idx" ON "earning_lines" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "earning_tranches_line_idx" ON "earning_tranches" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "earning_tranches_due_idx" ON "earning_tranches" USING btree ("due_at") WHERE "earning_tranches"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "earning_tranches_unpaid_idx" ON "earning_tranches" USING btree ("teacher_id") WHERE "earning_tranches"."state" = 'released' and "earning_tranches"."payout_id" is null;--> statement-breakpoint
CREATE INDEX "ledger_entries_teacher_idx" ON "ledger_entries" USING btree ("teacher_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_line_idx" ON "ledger_entries" USING btree ("line_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_items_payout_payment_idx" ON "payout_items" USING btree ("payout_id","payment_id");--> statement-breakpoint
CREATE INDEX "payout_items_transfer_idx" ON "payout_items" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "payouts_teacher_idx" ON "payouts" USING btree ("teacher_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payouts_status_idx" ON "payouts" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payouts_due_idx" ON "payouts" USING btree ("next_check_at") WHERE "payouts"."status" = 'in_flight';--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_open_idx" ON "payouts" USING btree ("teacher_id") WHERE "payouts"."status" in ('in_flight', 'manual');--> statement-breakpoint
CREATE INDEX "teacher_balances_available_idx" ON "teacher_balances" USING btree ("available_cents") WHERE "teacher_balances"."available_cents" > 0;