-- The back office's postcode searches (ADR 0284), written by hand like 0030_staff_order_indexes.sql:
-- the indexes are on the orders table, which the staff module reads but does not own. Each
-- expression is the one src/server/modules/staff/order-search.ts queries with (EXPR).
-- A whole postcode is read in date order (equality on the first column, then the keyset's order);
-- the same index serves a prefix of anything that is not a UK postcode (text_pattern_ops).
-- It replaces the prefix-only index of 0030.
CREATE INDEX IF NOT EXISTS "orders_staff_postcode_date" ON "orders" (upper(replace("shipping_address" ->> 'postcode', ' ', '')) text_pattern_ops, "order_date" DESC, "id" DESC);
--> statement-breakpoint
DROP INDEX IF EXISTS "orders_staff_postcode";
--> statement-breakpoint
-- The outward code (all but a UK postcode's last three characters, its inward code): 'BS1' lists
-- that district's orders newest first without reading and sorting all of them.
CREATE INDEX IF NOT EXISTS "orders_staff_outward_date" ON "orders" (left(upper(replace("shipping_address" ->> 'postcode', ' ', '')), -3), "order_date" DESC, "id" DESC);
