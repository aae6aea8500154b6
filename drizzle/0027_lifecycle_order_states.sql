CREATE SEQUENCE "public"."order_change_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"type" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_name" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipment_lines" (
	"shipment_id" integer NOT NULL,
	"order_line_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "shipment_lines_shipment_id_order_line_id_pk" PRIMARY KEY("shipment_id","order_line_id"),
	CONSTRAINT "shipment_lines_quantity" CHECK ("shipment_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"shipment_ref" text NOT NULL,
	"carrier" text NOT NULL,
	"tracking_number" text NOT NULL,
	"tracking_url" text,
	"shipped_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "change_seq" bigint DEFAULT nextval('order_change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "held_from" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "hold_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "erp_ref" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "erp_acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_status" text DEFAULT 'unpaid' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fulfilment_status" text DEFAULT 'unfulfilled' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_lines" ADD CONSTRAINT "shipment_lines_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_lines" ADD CONSTRAINT "shipment_lines_order_line_id_order_items_id_fk" FOREIGN KEY ("order_line_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order" ON "order_events" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "shipment_lines_line" ON "shipment_lines" USING btree ("order_line_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_order_ref" ON "shipments" USING btree ("order_id","shipment_ref");--> statement-breakpoint
CREATE INDEX "orders_change_seq" ON "orders" USING btree ("change_seq");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunded" CHECK ("orders"."refunded_minor" >= 0 and "orders"."refunded_minor" <= "orders"."total_inc_vat");--> statement-breakpoint
-- Existing orders (ADR 0200): the feed's cursor in the order they were written, the payment
-- status from how they were paid, and the status from the customer word set by SQL until now.
UPDATE "orders" SET "change_seq" = s.seq FROM (SELECT "id", nextval('order_change_seq') AS seq FROM (SELECT "id" FROM "orders" ORDER BY "id") o) s WHERE "orders"."id" = s."id";--> statement-breakpoint
UPDATE "orders" SET "payment_status" = 'paid' WHERE "status" = 'placed' AND "payment_method" <> 'purchase_order';--> statement-breakpoint
UPDATE "orders" SET "status" = 'held', "held_from" = 'placed' WHERE "status" = 'placed' AND "maginus_status" = 1;--> statement-breakpoint
UPDATE "orders" SET "status" = 'shipped', "fulfilment_status" = 'shipped' WHERE "status" = 'placed' AND "maginus_status" = 2;--> statement-breakpoint
UPDATE "orders" SET "status" = 'cancelled' WHERE "status" = 'placed' AND "maginus_status" = 3;
