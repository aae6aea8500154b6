ALTER TABLE "payment_refunds" DROP CONSTRAINT "payment_refunds_amount";--> statement-breakpoint
ALTER TABLE "shipments" ALTER COLUMN "tracking_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_amount" CHECK ("payment_refunds"."amount_minor" > 0 or ("payment_refunds"."amount_minor" = 0 and "payment_refunds"."how" = 'void'));