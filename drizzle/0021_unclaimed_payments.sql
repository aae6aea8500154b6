ALTER TABLE "payment_attempts" ADD COLUMN "checkout" jsonb;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "resolution_note" text;--> statement-breakpoint
-- Hand-written (keep when regenerating): paid attempts from before this migration get a resolution,
-- never an automatic void: with their order, or left for a person as the old 'Known limit' said.
UPDATE "payment_attempts" a SET
  "resolution" = CASE WHEN EXISTS (SELECT 1 FROM "orders" o WHERE 'basket:' || o."cart_ref"::text = a."order_ref") THEN 'order_placed' ELSE 'needs_attention' END,
  "resolution_note" = CASE WHEN EXISTS (SELECT 1 FROM "orders" o WHERE 'basket:' || o."cart_ref"::text = a."order_ref") THEN 'order placed (before migration 0021)' ELSE 'paid without an order before migration 0021: refund or place by hand' END
WHERE a."state" IN ('authorised', 'captured');
