ALTER TABLE "orders" ADD COLUMN "payment_attempt_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "site_origin" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_payment_attempt" ON "orders" USING btree ("payment_attempt_id");