CREATE SEQUENCE "public"."invoice_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 700001 CACHE 1;--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"invoice_number" bigint DEFAULT nextval('invoice_number_seq') NOT NULL,
	"order_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"invoice_date" timestamp with time zone DEFAULT now() NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"goods_net" integer NOT NULL,
	"shipping_net" integer NOT NULL,
	"vat" integer NOT NULL,
	"billing_address" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketing_consents" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"preference" text NOT NULL,
	"status" boolean NOT NULL,
	"wording" text NOT NULL,
	"source" text NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketing_consents" ADD CONSTRAINT "marketing_consents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_invoice_number" ON "invoices" USING btree ("invoice_number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order" ON "invoices" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "invoices_customer" ON "invoices" USING btree ("customer_id","invoice_date");--> statement-breakpoint
CREATE INDEX "marketing_consents_customer" ON "marketing_consents" USING btree ("customer_id","preference","id");