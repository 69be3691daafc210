ALTER TABLE "notification_settings" ADD COLUMN "email_verified_address" text;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "email_code_hash" text;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "email_code_address" text;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "email_code_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "email_code_tries" integer DEFAULT 0 NOT NULL;