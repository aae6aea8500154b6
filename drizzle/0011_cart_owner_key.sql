ALTER TABLE "carts" ADD COLUMN "owner_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "carts_owner_key" ON "carts" USING btree ("site_id","owner_key");