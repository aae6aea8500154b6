CREATE TABLE "customer_marketing" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"opted_in" boolean NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_marketing" ADD CONSTRAINT "customer_marketing_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;