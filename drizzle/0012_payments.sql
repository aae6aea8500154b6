CREATE TABLE "payment_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"order_ref" text NOT NULL,
	"attempt_no" integer NOT NULL,
	"method" text NOT NULL,
	"state" text DEFAULT 'created' NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"reference" text NOT NULL,
	"provider_refs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"next_action" jsonb,
	"last_code" text,
	"last_message" text,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_operation" text,
	"pending_request" jsonb,
	"reconcile_after" timestamp with time zone,
	"reconcile_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"kind" text NOT NULL,
	"attempt_id" text,
	"result" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_order_no" ON "payment_attempts" USING btree ("order_ref","attempt_no");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_reference" ON "payment_attempts" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_one_success" ON "payment_attempts" USING btree ("order_ref") WHERE "payment_attempts"."state" in ('authorised', 'captured');--> statement-breakpoint
CREATE INDEX "payment_attempts_reconcile" ON "payment_attempts" USING btree ("reconcile_after") WHERE "payment_attempts"."reconcile_after" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_notifications_event" ON "payment_notifications" USING btree ("provider","event_id");