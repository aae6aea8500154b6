CREATE TABLE "order_owner_confirmations" (
	"order_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"confirmed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_owner_confirmations_order_id_customer_id_pk" PRIMARY KEY("order_id","customer_id")
);
--> statement-breakpoint
ALTER TABLE "promotion_uses" ADD COLUMN "expires_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "order_owner_confirmations" ADD CONSTRAINT "order_owner_confirmations_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_owner_confirmations" ADD CONSTRAINT "order_owner_confirmations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "promotion_uses_expiry" ON "promotion_uses" USING btree ("promotion_id","expires_at");