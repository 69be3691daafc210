CREATE TABLE "wildcard_certificate_uses" (
	"configuration_id" uuid PRIMARY KEY NOT NULL,
	"holder_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wildcard_certificate_uses" ADD CONSTRAINT "wildcard_certificate_uses_configuration_id_proxy_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."proxy_configurations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wildcard_certificate_uses" ADD CONSTRAINT "wildcard_certificate_uses_holder_id_proxy_configurations_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."proxy_configurations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wildcard_certificate_uses_holder_idx" ON "wildcard_certificate_uses" USING btree ("holder_id","configuration_id");