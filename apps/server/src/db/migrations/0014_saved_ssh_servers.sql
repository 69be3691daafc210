CREATE TYPE "public"."ssh_auth_kind" AS ENUM('password', 'key');--> statement-breakpoint
CREATE TABLE "ssh_servers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"host" text NOT NULL,
	"port" integer DEFAULT 22 NOT NULL,
	"username" text DEFAULT 'root' NOT NULL,
	"auth_kind" "ssh_auth_kind" DEFAULT 'password' NOT NULL,
	"password_enc" text,
	"private_key_enc" text,
	"passphrase_enc" text,
	"sudo_password_enc" text,
	"public_key" text,
	"host_key_fingerprint" text,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_checked_at" timestamp with time zone,
	"reachable" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD COLUMN "ssh_server_id" uuid;--> statement-breakpoint
ALTER TABLE "ssh_servers" ADD CONSTRAINT "ssh_servers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ssh_servers_user_idx" ON "ssh_servers" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD CONSTRAINT "proxy_configurations_ssh_server_id_ssh_servers_id_fk" FOREIGN KEY ("ssh_server_id") REFERENCES "public"."ssh_servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proxy_configurations_ssh_server_idx" ON "proxy_configurations" USING btree ("ssh_server_id");--> statement-breakpoint
-- Existing proxies each get a saved server, one per (owner, host, port, user), with the newest pin seen there. Their passwords are bound to the proxy row (lib/secrets.ts additional data), so SQL cannot move them: the server copy is made at start-up (modules/ssh-servers/password-backfill.ts).
INSERT INTO "ssh_servers" ("user_id", "name", "host", "port", "username", "auth_kind", "host_key_fingerprint", "created_at")
SELECT "user_id", "ssh_user" || '@' || "server_ip" || CASE WHEN "ssh_port" = 22 THEN '' ELSE ':' || "ssh_port" END, "server_ip", "ssh_port", "ssh_user", 'password',
  (array_agg("host_key_fingerprint" ORDER BY "updated_at" DESC) FILTER (WHERE "host_key_fingerprint" IS NOT NULL))[1],
  min("created_at")
FROM "proxy_configurations" GROUP BY "user_id", "server_ip", "ssh_port", "ssh_user";--> statement-breakpoint
-- No answer shows ssh_server_id, so the answer counters (0009, 0010) are not moved by this.
DO $$
DECLARE previous text := current_setting('portico.answer_versions', true);
BEGIN
  PERFORM set_config('portico.answer_versions', 'off', true);
  UPDATE "proxy_configurations" p SET "ssh_server_id" = s."id" FROM "ssh_servers" s
  WHERE s."user_id" = p."user_id" AND s."host" = p."server_ip" AND s."port" = p."ssh_port" AND s."username" = p."ssh_user";
  PERFORM set_config('portico.answer_versions', coalesce(previous, ''), true);
END $$;
