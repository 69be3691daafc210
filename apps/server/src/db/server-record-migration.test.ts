// Migration 0004 on rows written before it: every proxy that was deployed, or whose run started,
// gets an unconfirmed record of what may be on its server, so a delete with removal goes there.
import { renderStored } from '@portico/shared/i18n/text';
import { asc, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/support/migrations-before';
import { testDatabaseKinds } from '../../test/support/test-database';
import { certName } from '../deploy/site-names';
import { runMigrations } from './migrate';
import { deploymentLogs, proxyConfigurations } from './schema';

const LONG = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(40)}.example.com`;

describe.each(testDatabaseKinds())('migration 0004 (server record) on %s', (kind) => {
  const test = databaseBeforeMigration(kind, 4);

  it('records what earlier rows may have on their servers, and older log lines still read', async () => {
    const { db } = test.database;
    await db.execute(sql`insert into users (id, username, email, password_hash)
      values ('00000000-0000-4000-8000-00000000000a', 'old', 'old@example.com', 'x')`);
    const insert = (id: string, domain: string, extra: string) =>
      db.execute(
        sql.raw(`insert into proxy_configurations
          (id, user_id, domain, server_ip, email, status, ssl_configured, nginx_config_path,
           certificate_expires_at, last_deployed_at, deployed_snapshot)
          values ('${id}', '00000000-0000-4000-8000-00000000000a', '${domain}', '198.51.100.1',
           'ops@example.com', ${extra})`),
      );
    // Deployed, then edited to another domain and server: the record follows the snapshot.
    await insert(
      '00000000-0000-4000-8000-000000000001',
      'edited.example.com',
      `'completed', true, '/etc/nginx/sites-available/proxy-app.example.com',
       '2027-01-01T00:00:00Z', '2026-10-01T00:00:00Z',
       '{"domain":"app.example.com","serverIp":"198.51.100.9","sshPort":2222,"sshUser":"deploy","targetServer":"http://10.0.0.1:80"}'`,
    );
    // Failed after writing, then reset: nothing on the row says so, but its run had started.
    await insert(
      '00000000-0000-4000-8000-000000000002',
      'reset.example.com',
      `'pending', false, null, null, null, null`,
    );
    await db.execute(sql`insert into deployments (configuration_id, trigger, status, started_at)
      values ('00000000-0000-4000-8000-000000000002', 'deploy', 'failed', now())`);
    // Never deployed.
    await insert(
      '00000000-0000-4000-8000-000000000003',
      'new.example.com',
      `'pending', false, null, null, null, null`,
    );
    // A long domain's certificate name is shortened the way the engine shortens it.
    await insert(
      '00000000-0000-4000-8000-000000000004',
      LONG,
      `'completed', true, '/etc/nginx/conf.d/proxy-long.conf', null, now(), null`,
    );
    await db.execute(sql`insert into deployment_logs (configuration_id, level, message)
      values ('00000000-0000-4000-8000-000000000002', 'info', 'Desplegando reset.example.com.')`);

    await runMigrations(test.database);
    const rows = await db.select().from(proxyConfigurations).orderBy(asc(proxyConfigurations.id));
    const [edited, reset, fresh, long] = rows;
    expect(edited!.serverSites).toEqual([
      {
        serverIp: '198.51.100.9',
        sshPort: 2222,
        sshUser: 'deploy',
        hostKeyFingerprint: null,
        domain: 'app.example.com',
        files: [
          '/etc/nginx/sites-available/proxy-app.example.com',
          '/etc/nginx/sites-enabled/proxy-app.example.com',
        ],
        enabled: true,
        https: true,
        certificate: { name: 'app.example.com', expiresAt: '2027-01-01T00:00:00.000Z' },
        unconfirmed: true,
        checkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect(reset!.serverSites).toMatchObject([
      { domain: 'reset.example.com', files: [], certificate: null, unconfirmed: true },
    ]);
    expect(fresh!.serverSites).toEqual([]);
    expect(fresh!.lastFailure).toBeNull();
    expect(long!.serverSites[0]!.certificate!.name).toBe(certName(LONG));

    const [line] = await db.select().from(deploymentLogs);
    expect(line!.text).toBeNull();
    expect(renderStored('en', line!)).toBe('Desplegando reset.example.com.');
  });
});
