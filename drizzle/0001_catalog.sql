CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"parent_id" integer,
	"slug" text NOT NULL,
	"url" text NOT NULL,
	"name" text NOT NULL,
	"short_description" text DEFAULT '' NOT NULL,
	"long_description" text DEFAULT '' NOT NULL,
	"long_description_structured" jsonb,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"referrer_required" boolean DEFAULT false NOT NULL,
	"builder" jsonb,
	"display" text DEFAULT 'paginated' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "category_products" (
	"category_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"name_override" text,
	"description_override" text,
	"image_override" text,
	CONSTRAINT "category_products_category_id_group_id_pk" PRIMARY KEY("category_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "product_alternatives" (
	"group_id" integer NOT NULL,
	"alternative_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_alternatives_group_id_alternative_id_pk" PRIMARY KEY("group_id","alternative_id")
);
--> statement-breakpoint
CREATE TABLE "product_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"category_id" integer NOT NULL,
	"slug" text NOT NULL,
	"url" text NOT NULL,
	"name" text NOT NULL,
	"short_description" text DEFAULT '' NOT NULL,
	"long_description" text DEFAULT '' NOT NULL,
	"long_description2" text DEFAULT '' NOT NULL,
	"long_description_structured" jsonb,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"colour_swatches" jsonb,
	"zone_pricing" jsonb,
	"layout" text DEFAULT 'Default' NOT NULL,
	"brand" text,
	"mp3_link" text,
	"image_sku" text,
	"min_price" integer DEFAULT 0 NOT NULL,
	"vat_relief_eligible" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"sku" text NOT NULL,
	"product_code" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"grid" integer DEFAULT 1 NOT NULL,
	"row_key" text,
	"option_label" text,
	"qty" integer DEFAULT 0 NOT NULL,
	"minimum_order" integer DEFAULT 1 NOT NULL,
	"price_list" jsonb NOT NULL,
	"was_price" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_products" ADD CONSTRAINT "category_products_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_products" ADD CONSTRAINT "category_products_group_id_product_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."product_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_alternatives" ADD CONSTRAINT "product_alternatives_group_id_product_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."product_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_alternatives" ADD CONSTRAINT "product_alternatives_alternative_id_product_groups_id_fk" FOREIGN KEY ("alternative_id") REFERENCES "public"."product_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_groups" ADD CONSTRAINT "product_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_groups" ADD CONSTRAINT "product_groups_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_group_id_product_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."product_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_site_url" ON "categories" USING btree ("site_id","url");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_uuid" ON "categories" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "categories_parent" ON "categories" USING btree ("site_id","parent_id","position");--> statement-breakpoint
CREATE INDEX "category_products_group" ON "category_products" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_groups_site_url" ON "product_groups" USING btree ("site_id","url");--> statement-breakpoint
CREATE UNIQUE INDEX "product_groups_uuid" ON "product_groups" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "product_groups_category" ON "product_groups" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "product_groups_site_published_name" ON "product_groups" USING btree ("site_id","published","name");--> statement-breakpoint
CREATE INDEX "product_groups_site_published_price" ON "product_groups" USING btree ("site_id","published","min_price");--> statement-breakpoint
CREATE INDEX "product_groups_site_published_created" ON "product_groups" USING btree ("site_id","published","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "products_site_sku" ON "products" USING btree ("site_id","sku");--> statement-breakpoint
CREATE INDEX "products_group" ON "products" USING btree ("group_id","grid","position");