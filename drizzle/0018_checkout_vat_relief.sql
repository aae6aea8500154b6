ALTER TABLE "product_groups" ADD COLUMN "vat_relief_kind" text;--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "vat_relief_declaration" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_relief_declaration" jsonb;