-- The back office's order searches (ADR 0284), written by hand like 0030_staff_order_indexes.sql:
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
--> statement-breakpoint
-- A common e-mail or PO number prefix ('amy', 'PO-1') is read in the list's order, its test made in
-- the index (the prefix's range on the last column), so only matches are read from the table; a
-- rare one is served by 0030's prefix indexes. The planner chooses by its statistics.
CREATE INDEX IF NOT EXISTS "orders_staff_date_email" ON "orders" ("order_date" DESC, "id" DESC, lower("contact" ->> 'email') text_pattern_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_staff_date_po" ON "orders" ("order_date" DESC, "id" DESC, upper("po_number") text_pattern_ops);
--> statement-breakpoint
-- A finer sample of names (1,000 values, not 100) so the planner's estimate of a fragment's matches
-- is near the truth: a fragment expected to match more than 2,000 orders walks the date index at
-- once (order-search.ts). Where pg_trgm is missing (PGlite) the index does not exist.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = 'orders_staff_name_trgm') THEN
    ALTER INDEX "orders_staff_name_trgm" ALTER COLUMN 1 SET STATISTICS 1000;
  END IF;
END $$;
