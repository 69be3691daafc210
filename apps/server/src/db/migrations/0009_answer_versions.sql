CREATE TABLE "answer_versions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
-- Statement-level, with the changed rows as transition tables: one upsert per statement, the
-- accounts' rows taken in id order, so two statements never wait on each other's in turn.
-- PGlite (one process, which counts its own writes) has no use for them and starts with
-- portico.answer_versions=off; PostgreSQL never sets it.
CREATE FUNCTION "answer_versions_proxies_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "answer_versions" ("user_id", "version")
      SELECT DISTINCT "user_id", 1 FROM "changed_new" WHERE "user_id" IS NOT NULL ORDER BY 1
      ON CONFLICT ("user_id") DO UPDATE SET "version" = "answer_versions"."version" + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "answer_versions" ("user_id", "version")
      SELECT "user_id", 1 FROM (
        SELECT "user_id" FROM "changed_new" UNION SELECT "user_id" FROM "changed_old"
      ) AS "changed" WHERE "user_id" IS NOT NULL ORDER BY 1
      ON CONFLICT ("user_id") DO UPDATE SET "version" = "answer_versions"."version" + 1;
  ELSE
    INSERT INTO "answer_versions" ("user_id", "version")
      SELECT DISTINCT "user_id", 1 FROM "changed_old" WHERE "user_id" IS NOT NULL ORDER BY 1
      ON CONFLICT ("user_id") DO UPDATE SET "version" = "answer_versions"."version" + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "answer_versions_proxies_insert" AFTER INSERT ON "proxy_configurations"
  REFERENCING NEW TABLE AS "changed_new"
  FOR EACH STATEMENT WHEN (current_setting('portico.answer_versions', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION "answer_versions_proxies_changed"();
--> statement-breakpoint
CREATE TRIGGER "answer_versions_proxies_update" AFTER UPDATE ON "proxy_configurations"
  REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new"
  FOR EACH STATEMENT WHEN (current_setting('portico.answer_versions', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION "answer_versions_proxies_changed"();
--> statement-breakpoint
CREATE TRIGGER "answer_versions_proxies_delete" AFTER DELETE ON "proxy_configurations"
  REFERENCING OLD TABLE AS "changed_old"
  FOR EACH STATEMENT WHEN (current_setting('portico.answer_versions', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION "answer_versions_proxies_changed"();
--> statement-breakpoint
-- A configuration's log lines are part of its owner's answers (the logs screen).
CREATE FUNCTION "answer_versions_logs_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "answer_versions" ("user_id", "version")
      SELECT DISTINCT p."user_id", 1 FROM "changed_new" l
        JOIN "proxy_configurations" p ON p."id" = l."configuration_id" ORDER BY 1
      ON CONFLICT ("user_id") DO UPDATE SET "version" = "answer_versions"."version" + 1;
  ELSE
    INSERT INTO "answer_versions" ("user_id", "version")
      SELECT DISTINCT p."user_id", 1 FROM "changed_old" l
        JOIN "proxy_configurations" p ON p."id" = l."configuration_id" ORDER BY 1
      ON CONFLICT ("user_id") DO UPDATE SET "version" = "answer_versions"."version" + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "answer_versions_logs_insert" AFTER INSERT ON "deployment_logs"
  REFERENCING NEW TABLE AS "changed_new"
  FOR EACH STATEMENT WHEN (current_setting('portico.answer_versions', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION "answer_versions_logs_changed"();
--> statement-breakpoint
CREATE TRIGGER "answer_versions_logs_delete" AFTER DELETE ON "deployment_logs"
  REFERENCING OLD TABLE AS "changed_old"
  FOR EACH STATEMENT WHEN (current_setting('portico.answer_versions', true) IS DISTINCT FROM 'off')
  EXECUTE FUNCTION "answer_versions_logs_changed"();
