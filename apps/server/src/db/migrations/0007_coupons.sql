CREATE TABLE "coupon_redemptions" (
	"coupon_id" uuid NOT NULL,
	"student_id" text NOT NULL,
	"payment_id" uuid NOT NULL,
	"discount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupon_redemptions_coupon_id_student_id_pk" PRIMARY KEY("coupon_id","student_id"),
	CONSTRAINT "coupon_redemptions_discount" CHECK ("coupon_redemptions"."discount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"teacher_id" text,
	"created_by" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_code_unique" UNIQUE("code"),
	CONSTRAINT "coupons_code_normalised" CHECK ("coupons"."code" = upper(btrim("coupons"."code")) and length("coupons"."code") between 1 and 40),
	CONSTRAINT "coupons_value" CHECK (("coupons"."kind" = 'percent' and "coupons"."value" between 1 and 100) or ("coupons"."kind" = 'fixed' and "coupons"."value" > 0)),
	CONSTRAINT "coupons_max_uses_positive" CHECK ("coupons"."max_uses" is null or "coupons"."max_uses" > 0),
	CONSTRAINT "coupons_uses" CHECK ("coupons"."uses" >= 0 and ("coupons"."max_uses" is null or "coupons"."uses" <= "coupons"."max_uses"))
);
--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coupon_redemptions_payment_idx" ON "coupon_redemptions" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "coupons_teacher_idx" ON "coupons" USING btree ("teacher_id","created_at" DESC NULLS LAST);