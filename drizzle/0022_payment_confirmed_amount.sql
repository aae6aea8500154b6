ALTER TABLE "payment_attempts" ADD COLUMN "confirmed_amount_minor" integer;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "confirmed_currency" text;