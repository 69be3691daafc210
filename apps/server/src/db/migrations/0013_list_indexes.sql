DROP INDEX "proxy_configurations_user_idx";--> statement-breakpoint
CREATE INDEX "proxy_configurations_user_expiry_idx" ON "proxy_configurations" USING btree ("user_id",coalesce("certificate_expires_at", 'infinity'::timestamptz),"id");--> statement-breakpoint
CREATE INDEX "proxy_configurations_created_idx" ON "proxy_configurations" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "proxy_configurations_watched_idx" ON "proxy_configurations" USING btree ("id") WHERE "proxy_configurations"."ssl_configured";--> statement-breakpoint
CREATE INDEX "proxy_configurations_expiry_idx" ON "proxy_configurations" USING btree (coalesce("certificate_expires_at", 'infinity'::timestamptz),"id");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","username","id");--> statement-breakpoint
CREATE INDEX "proxy_configurations_user_idx" ON "proxy_configurations" USING btree ("user_id","created_at","id");