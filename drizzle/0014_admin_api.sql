CREATE TABLE "admin_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_id" integer,
	"site_id" integer,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"ip" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "admin_calls" ADD CONSTRAINT "admin_calls_token_id_admin_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."admin_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_tokens" ADD CONSTRAINT "admin_tokens_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_calls_token_at" ON "admin_calls" USING btree ("token_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "admin_tokens_hash" ON "admin_tokens" USING btree ("token_hash");