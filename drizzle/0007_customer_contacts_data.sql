-- Today's single set of contact fields on customers becomes each customer's primary contact,
-- and a club registration's address its primary shipping address. Re-runnable: customers that
-- already have a contact (or a shipping address) are skipped.
UPDATE "customers" SET "username" = "email" WHERE "username" IS NULL;
--> statement-breakpoint
UPDATE "customers" SET "register_date" = "created_at" WHERE "password_hash" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "customer_contacts" ("customer_id", "first_name", "last_name", "email", "phone", "company", "primary")
SELECT c."id", c."first_name", c."last_name", c."email", coalesce(c."phone", ''), coalesce(c."company", ''), true
FROM "customers" c
WHERE NOT EXISTS (SELECT 1 FROM "customer_contacts" x WHERE x."customer_id" = c."id");
--> statement-breakpoint
INSERT INTO "customer_addresses" ("customer_id", "type", "company", "address1", "town", "postcode", "country", "primary")
SELECT c."id", 'shipping', coalesce(c."company", ''), c."address1", c."town", c."postcode", 'GB', true
FROM "customers" c
WHERE c."address1" IS NOT NULL AND c."address1" <> '' AND c."town" IS NOT NULL AND c."postcode" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "customer_addresses" x WHERE x."customer_id" = c."id" AND x."type" = 'shipping');
