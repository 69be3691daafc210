CREATE TABLE "custom_certificates" (
	"configuration_id" uuid PRIMARY KEY NOT NULL,
	"chain_pem" text NOT NULL,
	"private_key_enc" text NOT NULL,
	"fingerprint" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"issuer" text NOT NULL,
	"names" jsonb NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "custom_certificates" ADD CONSTRAINT "custom_certificates_configuration_id_proxy_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."proxy_configurations"("id") ON DELETE cascade ON UPDATE no action;