ALTER TABLE "answer_versions" ADD COLUMN "proxies_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "answer_versions" ADD COLUMN "logs_version" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Two counters beside "version": "proxies_version" moves with the account's configurations
-- (the list, the details), "logs_version" with their log lines and with which configurations
-- it owns (the logs screen reads only that of a configuration, to answer 404 for another's).
-- So an edit leaves the logs' kept answers alone, and a deployment's lines the list's.
-- "version" still moves with every change: an instance from before this migration reads it
-- alone, and stays right while it runs beside upgraded ones.
-- Same shape as migration 0009: one upsert per statement, the accounts' rows in id order.
CREATE OR REPLACE FUNCTION "answer_versions_proxies_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "answer_versions" ("user_id", "version", "proxies_version", "logs_version")
      SELECT DISTINCT "user_id", 1, 1, 0 FROM "changed_new" WHERE "user_id" IS NOT NULL ORDER BY 1
      ON CONFLICT ("user_id") DO UPDATE SET "version" = "answer_versions"."version" + 1,
        "proxies_version" = "answer_versions"."proxies_version" + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    -- A row whose owner changed (or that is no longer found by its id) moves its old owner's
    -- logs too.
    INSERT INTO "answer_versions" ("user_id", "version", "proxies_version", "logs_version")
      SELECT "user_id", 1, 1, max("moved") FROM (
        SELECT "user_id", 0 AS "moved" FROM "changed_new"
        UNION ALL
        SELECT o."user_id", CASE WHEN n."user_id" IS NOT DISTINCT FROM o."user_id" THEN 0 ELSE 1 END
          FROM "changed_old" o LEFT JOIN "changed_new" n ON n."id" = o."id"
      ) AS "changed" WHERE "user_id" IS NOT NULL GROUP BY "user_id" ORDER BY 1
      ON CONFLICT ("user_id") DO UPDATE SET "version" = "answer_versions"."version" + 1,
        "proxies_version" = "answer_versions"."proxies_version" + 1,
        "logs_version" = "answer_versions"."logs_version" + excluded."logs_version";
  ELSE
    INSERT INTO "answer_versions" ("user_id", "version", "proxies_version", "logs_version")
      SELECT DISTINCT "user_id", 1, 1, 1 FROM "changed_old" WHERE "user_id" IS NOT NULL ORDER BY 1
      ON CONFLICT ("user_id") DO UPDATE SET "version" = "answer_versions"."version" + 1,
        "proxies_version" = "answer_versions"."proxies_version" + 1,
        "logs_version" = "answer_versions"."logs_version" + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "answer_versions_logs_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "answer_versions" ("user_id", "version", "proxies_version", "logs_version")
      SELECT DISTINCT p."user_id", 1, 0, 1 FROM "changed_new" l
        JOIN "proxy_configurations" p ON p."id" = l."configuration_id" ORDER BY 1
      ON CONFLICT ("user_id") DO UPDATE SET "version" = "answer_versions"."version" + 1,
        "logs_version" = "answer_versions"."logs_version" + 1;
  ELSE
    INSERT INTO "answer_versions" ("user_id", "version", "proxies_version", "logs_version")
      SELECT DISTINCT p."user_id", 1, 0, 1 FROM "changed_old" l
        JOIN "proxy_configurations" p ON p."id" = l."configuration_id" ORDER BY 1
      ON CONFLICT ("user_id") DO UPDATE SET "version" = "answer_versions"."version" + 1,
        "logs_version" = "answer_versions"."logs_version" + 1;
  END IF;
  RETURN NULL;
END $$;
