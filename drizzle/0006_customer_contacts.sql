CREATE TABLE "customer_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"type" text NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"address1" text NOT NULL,
	"address2" text DEFAULT '' NOT NULL,
	"town" text NOT NULL,
	"county" text DEFAULT '' NOT NULL,
	"postcode" text NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "external_key" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "register_date" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "customer_addresses" ADD CONSTRAINT "customer_addresses_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_contacts" ADD CONSTRAINT "customer_contacts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_addresses_customer" ON "customer_addresses" USING btree ("customer_id","type","id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_addresses_one_primary" ON "customer_addresses" USING btree ("customer_id","type") WHERE "customer_addresses"."primary";--> statement-breakpoint
CREATE INDEX "customer_contacts_customer" ON "customer_contacts" USING btree ("customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_contacts_one_primary" ON "customer_contacts" USING btree ("customer_id") WHERE "customer_contacts"."primary";