ALTER TABLE "enrollments" ADD COLUMN "paid_cents" integer;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "coupon_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "coupon_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "coupon_code" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "test_gateway_intents" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "test_gateway_intents" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Hand-written (issue 18 §2): every paid or refunded line gets what was paid for it. Payments
-- before coupons were charged the sum of their lines' class prices, so each line paid its price;
-- the payment's amount is split over its lines in proportion to their prices all the same, in
-- whole cents by the largest remainder (ties to the lower id), so the lines always sum to the
-- amount charged even for a payment that did not match its lines to the cent.
WITH "lines" AS (
	SELECT e."id", e."payment_id", p."amount_cents"::bigint AS "amount",
		e."price_cents"::bigint AS "price",
		sum(e."price_cents"::bigint) OVER (PARTITION BY e."payment_id") AS "base"
	FROM "enrollments" e JOIN "payments" p ON p."id" = e."payment_id"
	WHERE e."status"::text IN ('paid', 'refunded')
), "floored" AS (
	SELECT "id", "payment_id", "amount", ("price" * "amount") / "base" AS "share", ("price" * "amount") % "base" AS "remainder"
	FROM "lines"
), "ranked" AS (
	SELECT "id", "share", "amount" - sum("share") OVER (PARTITION BY "payment_id") AS "left",
		row_number() OVER (PARTITION BY "payment_id" ORDER BY "remainder" DESC, "id") AS "rank"
	FROM "floored"
)
UPDATE "enrollments" SET "paid_cents" = ("ranked"."share" + CASE WHEN "ranked"."rank" <= "ranked"."left" THEN 1 ELSE 0 END)::integer
FROM "ranked" WHERE "ranked"."id" = "enrollments"."id";--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_paid_cents" CHECK (("enrollments"."status"::text in ('paid', 'refunded')) = ("enrollments"."paid_cents" is not null) and ("enrollments"."paid_cents" is null or "enrollments"."paid_cents" between 0 and "enrollments"."price_cents"));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_discount" CHECK ("payments"."discount_cents" >= 0 and ("payments"."coupon_id" is null) = ("payments"."coupon_code" is null));