CREATE SEQUENCE "public"."order_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 100001 CACHE 1;--> statement-breakpoint
CREATE TABLE "mail_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"dedupe_key" text NOT NULL,
	"message" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"feedback" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"cart_item_id" integer,
	"parent_cart_item_id" integer,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"product" jsonb NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" integer NOT NULL,
	"line_total" integer NOT NULL,
	"line_total_ex_discount_ex_tax" integer NOT NULL,
	"vat_rate" integer NOT NULL,
	"vat" integer NOT NULL,
	"is_free_gift" boolean DEFAULT false NOT NULL,
	"builder_id" integer,
	"sequence_id" text,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"payment_provider" text NOT NULL,
	"payment_details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"amount" integer NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"auth_code" text DEFAULT 'empty' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"order_number" bigint DEFAULT nextval('order_number_seq') NOT NULL,
	"cart_ref" uuid NOT NULL,
	"idempotency_key" text,
	"customer_id" integer,
	"placed_as_guest" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"maginus_status" integer,
	"order_source" text DEFAULT 'Desktop' NOT NULL,
	"currency" text NOT NULL,
	"payment_method" text NOT NULL,
	"po_number" text,
	"vat_number" text,
	"notes" text DEFAULT '' NOT NULL,
	"contact" jsonb NOT NULL,
	"shipping_address" jsonb NOT NULL,
	"billing_address" jsonb NOT NULL,
	"despatch_type" text DEFAULT '' NOT NULL,
	"delivery_name" text DEFAULT '' NOT NULL,
	"promotion_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"apply_vat_relief" boolean DEFAULT false NOT NULL,
	"goods_net" integer NOT NULL,
	"shipping_net" integer NOT NULL,
	"shipping_vat" integer NOT NULL,
	"vat" integer NOT NULL,
	"discount" integer NOT NULL,
	"customisation_charge" integer DEFAULT 0 NOT NULL,
	"total_inc_vat" integer NOT NULL,
	"order_date" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_total" CHECK ("orders"."total_inc_vat" = "orders"."goods_net" + "orders"."shipping_net" + "orders"."vat")
);
--> statement-breakpoint
CREATE TABLE "promotion_redemptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"promotion_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "ordered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_feedback" ADD CONSTRAINT "order_feedback_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_transactions" ADD CONSTRAINT "order_transactions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_jobs_dedupe_key" ON "mail_jobs" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "mail_jobs_due" ON "mail_jobs" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "order_feedback_order" ON "order_feedback" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_items_order" ON "order_items" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "order_transactions_order" ON "order_transactions" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_number" ON "orders" USING btree ("order_number");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_cart_ref" ON "orders" USING btree ("cart_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_key" ON "orders" USING btree ("site_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_customer" ON "orders" USING btree ("customer_id","order_date");--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_redemptions_order_promotion" ON "promotion_redemptions" USING btree ("order_id","promotion_id");