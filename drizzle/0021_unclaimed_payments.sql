ALTER TABLE "payment_attempts" ADD COLUMN "checkout" jsonb;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "resolution_note" text;