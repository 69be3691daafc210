CREATE TYPE "public"."deployment_status" AS ENUM('queued', 'running', 'completed', 'failed');--> statement-breakpoint
CREATE TYPE "public"."deployment_trigger" AS ENUM('deploy', 'redeploy');--> statement-breakpoint
CREATE TYPE "public"."log_level" AS ENUM('info', 'success', 'warning', 'error');--> statement-breakpoint
CREATE TYPE "public"."destination_status" AS ENUM('online', 'offline', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."proxy_status" AS ENUM('pending', 'dns-validated', 'deploying', 'completed', 'failed', 'deployed', 'error');--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"actor_id" uuid,
	"actor_username" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"target_owner_id" uuid,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployment_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deployment_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"configuration_id" uuid NOT NULL,
	"deployment_id" uuid,
	"level" "log_level" NOT NULL,
	"message" text NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"configuration_id" uuid NOT NULL,
	"trigger" "deployment_trigger" NOT NULL,
	"status" "deployment_status" DEFAULT 'queued' NOT NULL,
	"requested_by" uuid,
	"job_id" text,
	"error_code" text,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "destination_servers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"endpoint" text NOT NULL,
	"description" text,
	"status" "destination_status" DEFAULT 'unknown' NOT NULL,
	"load" text,
	"latency_ms" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"maintenance_note" text,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proxy_configurations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"ssh_server_id" uuid,
	"domain" text NOT NULL,
	"server_ip" text NOT NULL,
	"ssh_port" integer DEFAULT 22 NOT NULL,
	"ssh_user" text DEFAULT 'root' NOT NULL,
	"ssh_password_enc" text,
	"ssh_private_key_enc" text,
	"host_key_fingerprint" text,
	"email" text NOT NULL,
	"target_server" text,
	"status" "proxy_status" DEFAULT 'pending' NOT NULL,
	"ssl_configured" boolean DEFAULT false NOT NULL,
	"nginx_config_path" text,
	"certificate_expires_at" timestamp with time zone,
	"last_deployed_at" timestamp with time zone,
	"deployed_snapshot" jsonb,
	"custom_script_name" text,
	"custom_script" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ssh_servers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"host" text NOT NULL,
	"port" text DEFAULT '22' NOT NULL,
	"username" text NOT NULL,
	"password_enc" text,
	"private_key_enc" text,
	"host_key_fingerprint" text,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_logs" ADD CONSTRAINT "deployment_logs_configuration_id_proxy_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."proxy_configurations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_logs" ADD CONSTRAINT "deployment_logs_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_configuration_id_proxy_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."proxy_configurations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD CONSTRAINT "proxy_configurations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD CONSTRAINT "proxy_configurations_ssh_server_id_ssh_servers_id_fk" FOREIGN KEY ("ssh_server_id") REFERENCES "public"."ssh_servers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_servers" ADD CONSTRAINT "ssh_servers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "deployment_logs_configuration_idx" ON "deployment_logs" USING btree ("configuration_id","id");--> statement-breakpoint
CREATE INDEX "deployments_configuration_idx" ON "deployments" USING btree ("configuration_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "proxy_configurations_domain_key" ON "proxy_configurations" USING btree (lower("domain"));--> statement-breakpoint
CREATE INDEX "proxy_configurations_user_idx" ON "proxy_configurations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "ssh_servers_user_idx" ON "ssh_servers" USING btree ("user_id");