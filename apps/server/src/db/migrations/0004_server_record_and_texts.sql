ALTER TABLE "deployment_logs" ADD COLUMN "text" jsonb;--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "error_text" jsonb;--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD COLUMN "server_sites" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "proxy_configurations" ADD COLUMN "last_failure" jsonb;
--> statement-breakpoint
-- Rows from before the record: any proxy that was deployed, or whose run started, may have
-- files on its server. Each gets one entry, unconfirmed (never looked at), so a removal goes to
-- the server instead of assuming nothing is there.
UPDATE "proxy_configurations" AS p SET "server_sites" = jsonb_build_array(jsonb_build_object(
  'serverIp', w.server_ip,
  'sshPort', w.ssh_port,
  'sshUser', w.ssh_user,
  'hostKeyFingerprint', p.host_key_fingerprint,
  'domain', w.domain,
  'files', CASE
    WHEN p.nginx_config_path IS NULL THEN '[]'::jsonb
    WHEN p.nginx_config_path LIKE '/etc/nginx/sites-available/%' THEN jsonb_build_array(
      p.nginx_config_path,
      replace(p.nginx_config_path, '/etc/nginx/sites-available/', '/etc/nginx/sites-enabled/'))
    ELSE jsonb_build_array(p.nginx_config_path)
  END,
  'enabled', p.nginx_config_path IS NOT NULL,
  'https', p.ssl_configured,
  'certificate', CASE WHEN p.ssl_configured THEN jsonb_build_object(
    'name', CASE WHEN length(w.domain) <= 200 THEN w.domain
      ELSE left(w.domain, 180) || '-' || left(encode(sha256(convert_to(w.domain, 'UTF8')), 'hex'), 16) END,
    'expiresAt', to_char(p.certificate_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    ELSE NULL END,
  'unconfirmed', true,
  'checkedAt', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
FROM (
  SELECT id,
    coalesce(deployed_snapshot->>'serverIp', server_ip) AS server_ip,
    coalesce((deployed_snapshot->>'sshPort')::int, ssh_port) AS ssh_port,
    coalesce(deployed_snapshot->>'sshUser', ssh_user) AS ssh_user,
    coalesce(deployed_snapshot->>'domain', domain) AS domain
  FROM "proxy_configurations"
) AS w
WHERE w.id = p.id AND (
  p.last_deployed_at IS NOT NULL OR p.nginx_config_path IS NOT NULL OR EXISTS (
    SELECT 1 FROM "deployments" d WHERE d.configuration_id = p.id AND d.started_at IS NOT NULL));
