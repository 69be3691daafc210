CREATE TYPE "public"."server_run_kind" AS ENUM('redeploy', 'check-certificates');--> statement-breakpoint
CREATE TYPE "public"."server_run_outcome" AS ENUM('done', 'failed', 'refused');--> statement-breakpoint
CREATE TYPE "public"."server_run_state" AS ENUM('queued', 'running', 'done', 'failed', 'timed-out');--> statement-breakpoint
CREATE TABLE "server_run_results" (
	"run_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"proxy_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"outcome" "server_run_outcome" NOT NULL,
	"deployment_id" uuid,
	"text" jsonb,
	CONSTRAINT "server_run_results_run_id_position_pk" PRIMARY KEY("run_id","position")
);
--> statement-breakpoint
CREATE TABLE "server_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ssh_server_id" uuid NOT NULL,
	"kind" "server_run_kind" NOT NULL,
	"state" "server_run_state" DEFAULT 'queued' NOT NULL,
	"requested_by" uuid,
	"language" text NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"text" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"deadline_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "server_run_results" ADD CONSTRAINT "server_run_results_run_id_server_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."server_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_runs" ADD CONSTRAINT "server_runs_ssh_server_id_ssh_servers_id_fk" FOREIGN KEY ("ssh_server_id") REFERENCES "public"."ssh_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_runs" ADD CONSTRAINT "server_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "server_runs_one_active_idx" ON "server_runs" USING btree ("ssh_server_id") WHERE "server_runs"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "server_runs_server_idx" ON "server_runs" USING btree ("ssh_server_id","created_at","id");--> statement-breakpoint
CREATE INDEX "server_runs_requested_by_idx" ON "server_runs" USING btree ("requested_by");--> statement-breakpoint
CREATE INDEX "server_runs_unfinished_idx" ON "server_runs" USING btree ("id") WHERE "server_runs"."state" in ('queued', 'running');