-- ssh_servers and proxy_configurations.ssh_server_id were declared for saved servers that no screen, route or job ever wrote or read: dropped, with nothing in them to keep.
ALTER TABLE "proxy_configurations" DROP CONSTRAINT IF EXISTS "proxy_configurations_ssh_server_id_ssh_servers_id_fk";--> statement-breakpoint
ALTER TABLE "proxy_configurations" DROP COLUMN IF EXISTS "ssh_server_id";--> statement-breakpoint
DROP TABLE IF EXISTS "ssh_servers";
