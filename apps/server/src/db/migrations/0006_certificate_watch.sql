ALTER TYPE "public"."deployment_trigger" ADD VALUE 'renew_test';--> statement-breakpoint
ALTER TYPE "public"."deployment_trigger" ADD VALUE 'renew';--> statement-breakpoint
CREATE TABLE "certificate_status" (
	"configuration_id" uuid PRIMARY KEY NOT NULL,
	"served" jsonb,
	"last_check" jsonb,
	"check_requested_at" timestamp with time zone,
	"on_server" jsonb,
	"renewal" jsonb,
	"alerted" jsonb DEFAULT '{"expiry":"fine","checkFailed":false,"notReloaded":false}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email_enabled" boolean DEFAULT true NOT NULL,
	"webhook_url_enc" text,
	"webhook_origin" text,
	"webhook_hint" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "certificate_status" ADD CONSTRAINT "certificate_status_configuration_id_proxy_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."proxy_configurations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deployments_one_unfinished_idx" ON "deployments" USING btree ("configuration_id") WHERE "deployments"."status" in ('queued', 'running');