CREATE TABLE "order_builder_lines" (
	"order_item_id" integer PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"printable_sign" jsonb,
	"work_wear_session" jsonb,
	"preview_token" text NOT NULL,
	"preview_alt" text NOT NULL,
	"preview_svg" text NOT NULL,
	"preview_png" "bytea"
);
--> statement-breakpoint
CREATE TABLE "order_workwear_designs" (
	"order_id" integer NOT NULL,
	"session_id" uuid NOT NULL,
	"category_id" integer,
	"design" jsonb NOT NULL,
	"logo" "bytea",
	"logo_type" text,
	CONSTRAINT "order_workwear_designs_order_id_session_id_pk" PRIMARY KEY("order_id","session_id")
);
--> statement-breakpoint
ALTER TABLE "order_builder_lines" ADD CONSTRAINT "order_builder_lines_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_builder_lines" ADD CONSTRAINT "order_builder_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_builder_lines" ADD CONSTRAINT "order_builder_lines_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_workwear_designs" ADD CONSTRAINT "order_workwear_designs_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_builder_lines_token" ON "order_builder_lines" USING btree ("preview_token");--> statement-breakpoint
CREATE INDEX "order_builder_lines_order" ON "order_builder_lines" USING btree ("order_id");