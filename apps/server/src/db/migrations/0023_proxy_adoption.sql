CREATE TYPE "public"."proxy_origin" AS ENUM('portico', 'adopted');--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD COLUMN "origin" "proxy_origin" DEFAULT 'portico' NOT NULL;--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD COLUMN "adopted_file" text;--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD COLUMN "adopted_sha256" text;--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD COLUMN "adopted_file_text" text;--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD COLUMN "adopted_changed_at" timestamp with time zone;