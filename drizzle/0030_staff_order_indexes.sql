-- The back office's order list and search (ADR 0262), written by hand: the indexes are on the
-- orders table, which the staff module reads but does not own. Each expression is the one
-- src/server/modules/staff/order-search.ts queries with (EXPR), so the planner can use it.
-- Newest first, with the id as the tie-break of the keyset cursor; one per list filter.
CREATE INDEX IF NOT EXISTS "orders_staff_date" ON "orders" ("order_date" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_staff_status_date" ON "orders" ("status", "order_date" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_staff_site_date" ON "orders" ("site_id", "order_date" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_staff_method_date" ON "orders" ("payment_method", "order_date" DESC, "id" DESC);
--> statement-breakpoint
-- Search: exact or prefix matches on e-mail, delivery postcode (no spaces) and PO number.
CREATE INDEX IF NOT EXISTS "orders_staff_email" ON "orders" (lower("contact" ->> 'email') text_pattern_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_staff_postcode" ON "orders" (upper(replace("shipping_address" ->> 'postcode', ' ', '')) text_pattern_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_staff_po" ON "orders" (upper("po_number") text_pattern_ops);
--> statement-breakpoint
-- Names match anywhere in 'first last' by trigram where the database has pg_trgm (PostgreSQL's
-- contrib, a trusted extension). The embedded database (PGlite) is started without it: there the
-- extension and this index are skipped and a name search reads the table (small demo data).
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN others THEN
    RAISE NOTICE 'pg_trgm is not available: order name search runs without an index';
  END;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX IF NOT EXISTS "orders_staff_name_trgm" ON "orders" USING gin '
      || '(lower(("contact" ->> ''first_name'') || '' '' || ("contact" ->> ''last_name'')) gin_trgm_ops)';
  END IF;
END $$;
--> statement-breakpoint
-- The audit log is append-only (ADR 0260): no row is ever changed or removed.
CREATE OR REPLACE FUNCTION "staff_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'staff_audit is append-only: % refused', TG_OP;
END $$;
--> statement-breakpoint
CREATE TRIGGER "staff_audit_no_change" BEFORE UPDATE OR DELETE ON "staff_audit"
  FOR EACH ROW EXECUTE FUNCTION "staff_audit_append_only"();
