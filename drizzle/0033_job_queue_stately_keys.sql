DROP INDEX "queue_jobs_live_key";--> statement-breakpoint
CREATE UNIQUE INDEX "queue_jobs_queued_key" ON "queue_jobs" USING btree ("name","key") WHERE "queue_jobs"."state" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "queue_jobs_active_key" ON "queue_jobs" USING btree ("name","key") WHERE "queue_jobs"."state" = 'active';