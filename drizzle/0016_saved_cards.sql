CREATE TABLE "saved_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"provider" text NOT NULL,
	"token" text NOT NULL,
	"last4_digits" text NOT NULL,
	"card_type" text NOT NULL,
	"expiry" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "saved_cards" ADD CONSTRAINT "saved_cards_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_cards_customer_token" ON "saved_cards" USING btree ("customer_id","provider","token");--> statement-breakpoint
CREATE INDEX "saved_cards_customer" ON "saved_cards" USING btree ("customer_id","created_at");