ALTER TABLE "workwear_sessions" ADD COLUMN "logo_key" text;--> statement-breakpoint
ALTER TABLE "workwear_sessions" DROP COLUMN "logo";