CREATE TABLE "content_spaces" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_stories" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"full_slug" text NOT NULL,
	"is_startpage" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"tag_list" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"draft_content" jsonb NOT NULL,
	"published_content" jsonb,
	"sort_by_date" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"first_published_at" timestamp with time zone,
	CONSTRAINT "content_stories_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "form_submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"form_id" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_subscribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"email" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"consent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"consent_text" text NOT NULL,
	"source" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
DROP TABLE "content_pages" CASCADE;--> statement-breakpoint
ALTER TABLE "content_spaces" ADD CONSTRAINT "content_spaces_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_stories" ADD CONSTRAINT "content_stories_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD CONSTRAINT "newsletter_subscribers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_stories_site_full_slug" ON "content_stories" USING btree ("site_id","full_slug");--> statement-breakpoint
CREATE INDEX "content_stories_site_prefix" ON "content_stories" USING btree ("site_id","full_slug" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "form_submissions_site_form" ON "form_submissions" USING btree ("site_id","form_id");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_subscribers_site_email" ON "newsletter_subscribers" USING btree ("site_id","email");--> statement-breakpoint
CREATE INDEX "newsletter_subscribers_consent" ON "newsletter_subscribers" USING btree ("site_id","consent_at");