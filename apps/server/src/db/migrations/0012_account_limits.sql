CREATE TABLE "account_limits" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"proxies" integer,
	"servers" integer,
	"api_tokens" integer,
	"webhooks" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_limits" ADD CONSTRAINT "account_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;