CREATE SEQUENCE "public"."customer_change_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "admin_idempotency" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_id" integer NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"response_headers" jsonb,
	"locked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_invoice_documents" (
	"invoice_id" integer PRIMARY KEY NOT NULL,
	"pdf" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "change_seq" bigint DEFAULT nextval('customer_change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "change_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_idempotency" ADD CONSTRAINT "admin_idempotency_token_id_admin_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."admin_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_invoice_documents" ADD CONSTRAINT "admin_invoice_documents_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_idempotency_token_key" ON "admin_idempotency" USING btree ("token_id","key");--> statement-breakpoint
CREATE INDEX "admin_idempotency_expires" ON "admin_idempotency" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "customers_site_change" ON "customers" USING btree ("site_id","change_xid","change_seq");