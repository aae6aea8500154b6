ALTER TABLE "customers" DROP COLUMN "phone";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "address1";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "town";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "postcode";