ALTER TABLE "order_workwear_designs" ADD COLUMN "logo_key" text;--> statement-breakpoint
ALTER TABLE "workwear_sessions" ADD COLUMN "logo_key" text;--> statement-breakpoint
ALTER TABLE "order_workwear_designs" DROP COLUMN "logo";--> statement-breakpoint
ALTER TABLE "workwear_sessions" DROP COLUMN "logo";