ALTER TABLE "proxy_configurations" ADD COLUMN "ssh_password_target" text;--> statement-breakpoint
-- A password saved before the binding existed belongs to where the configuration points now.
UPDATE "proxy_configurations" SET "ssh_password_target" = "ssh_user" || '@' || "server_ip" || ':' || "ssh_port" WHERE "ssh_password_enc" IS NOT NULL;
