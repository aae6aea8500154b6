CREATE TABLE "queue_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb,
	"key" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"claim_token" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mail_jobs" ADD COLUMN "claim_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "queue_jobs_live_key" ON "queue_jobs" USING btree ("name","key") WHERE "queue_jobs"."state" in ('queued', 'active');--> statement-breakpoint
CREATE INDEX "queue_jobs_due" ON "queue_jobs" USING btree ("state","run_at");