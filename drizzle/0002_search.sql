CREATE TABLE "search_clicks" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"query_id" text NOT NULL,
	"object_id" text NOT NULL,
	"position" integer NOT NULL,
	"event_name" text NOT NULL,
	"index_name" text NOT NULL,
	"user_token" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_queries" (
	"query_id" text PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"index_name" text NOT NULL,
	"query" text NOT NULL,
	"nb_hits" integer NOT NULL,
	"submitted" boolean DEFAULT false NOT NULL,
	"user_token" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_redirects" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"query" text NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search_clicks" ADD CONSTRAINT "search_clicks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_queries" ADD CONSTRAINT "search_queries_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_redirects" ADD CONSTRAINT "search_redirects_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_clicks_site_object" ON "search_clicks" USING btree ("site_id","object_id");--> statement-breakpoint
CREATE INDEX "search_clicks_query" ON "search_clicks" USING btree ("query_id");--> statement-breakpoint
CREATE INDEX "search_queries_site_submitted" ON "search_queries" USING btree ("site_id","submitted","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "search_redirects_site_query" ON "search_redirects" USING btree ("site_id","query");