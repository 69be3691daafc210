CREATE TABLE "dns_challenges" (
	"configuration_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"include_apex" boolean DEFAULT false NOT NULL,
	"credentials_enc" text NOT NULL,
	"server_ip" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dns_challenges" ADD CONSTRAINT "dns_challenges_configuration_id_proxy_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."proxy_configurations"("id") ON DELETE cascade ON UPDATE no action;