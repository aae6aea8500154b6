CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"from" text NOT NULL,
	"to" jsonb NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"raw" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mail_outbox_created" ON "mail_outbox" USING btree ("created_at");