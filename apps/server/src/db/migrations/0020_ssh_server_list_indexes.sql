DROP INDEX "ssh_servers_user_idx";--> statement-breakpoint
CREATE INDEX "ssh_servers_created_idx" ON "ssh_servers" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "ssh_servers_user_idx" ON "ssh_servers" USING btree ("user_id","created_at","id");