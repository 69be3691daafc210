// The certificate watch's pass and the alerts it raises read what they need: among 3,000
// proxies without HTTPS and 3,000 plain accounts, the 5 HTTPS sites are swept (a failed check
// recorded for each, as the real check records one) and each failed check alerts the owner and
// the 2 admins. Every read of the pass, explained with the planner's own plan
// (test/support/rows-read.ts), goes through a few rows per site; reading every proxy, or every
// account to find the admins, would count 3,000 each time.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertManyProxies } from '../../../test/support/many-proxies';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { rowsReadRecorder } from '../../../test/support/rows-read';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { users } from '../../db/schema';
import { createCertificateActionHistory } from '../deployments/certificate-action-history.repository';
import { createAlerts } from '../notifications/alerts';
import { createProxyCertificateReads } from '../proxies/proxy-certificates.repository';
import { createUsersRepository } from '../users/users.repository';
import { raiseAlerts, sweep, type TWatchDeps } from './certificate-watch';
import { createCertificatesRepository } from './certificates.repository';

const MANY = 3000;
const HTTPS = 5;

describe.each(testDatabaseKinds())('the certificate pass reads what it needs on %s', (kind) => {
  let t: TTestApp;
  let admins: string[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    const { db } = t.database;
    const { user } = await signedInClient(t);
    const prefix = `sweepreads${process.pid}${kind}`;
    await insertManyProxies(db, user.id, MANY, { prefix: `${prefix}-plain` });
    await insertManyProxies(db, user.id, HTTPS, {
      prefix: `${prefix}-https`,
      shape: () => ({ sslConfigured: true, status: 'completed' as const }),
    });
    for (let from = 0; from < MANY; from += 1000) {
      await db.insert(users).values(
        Array.from({ length: 1000 }, (_, i) => ({
          username: `${prefix}u${from + i}`,
          email: `${prefix}u${from + i}@example.com`,
          passwordHash: 'not-a-hash',
        })),
      );
    }
    const rows = await db
      .insert(users)
      .values(
        [1, 2].map((i) => ({
          username: `${prefix}admin${i}`,
          email: `${prefix}admin${i}@example.com`,
          passwordHash: 'not-a-hash',
          role: 'admin' as const,
        })),
      )
      .returning({ id: users.id });
    admins = rows.map((row) => row.id);
    await db.execute(sql`analyze`);
  });
  afterAll(async () => t?.close());

  it('sweeps the HTTPS sites and alerts the admins reading a few rows per site', async () => {
    const recorder = rowsReadRecorder(t.database);
    const usersRepository = createUsersRepository(recorder.db);
    const recipients: string[] = [];
    const now = () => new Date();
    const deps: TWatchDeps = {
      certificates: createCertificatesRepository(recorder.db, {
        proxies: createProxyCertificateReads,
        history: (db) => createCertificateActionHistory(db, createProxyCertificateReads),
      }),
      alerts: createAlerts({
        notifications: {
          deliver: async (user) => {
            recipients.push(user.id);
            return { email: 'skipped', webhook: 'skipped' } as never;
          },
        },
        findUser: (id) => usersRepository.findById(id),
        listAdmins: () => usersRepository.listAdmins(),
        now,
      }),
      now,
      log: { warn: () => {}, info: () => {} },
    };
    const result = await sweep(deps, {
      jitterMs: 0,
      // What watchOne does after the network: the outcome recorded, then the alerts.
      check: async (watched) => {
        const row = await deps.certificates.recordCheck(watched.proxy.id, {
          check: {
            checkedAt: now().toISOString(),
            ok: false,
            problem: { key: 'certificates.problem.refused', params: { where: '203.0.113.1:443' } },
            httpRedirects: null,
            httpProblem: null,
          },
          served: null,
          startedAt: now(),
        });
        await raiseAlerts(deps, watched.proxy, row);
      },
    });
    expect(result).toMatchObject({ checked: HTTPS, failed: 0 });
    for (const admin of admins) expect(recipients.filter((id) => id === admin)).toHaveLength(HTTPS);
    expect(recipients).toHaveLength(HTTPS * 3);
    // Per site: its batch's share, its status row read back; per alert: the owner and 2 admins.
    expect(recorder.rowsRead('proxy_configurations')).toBeLessThanOrEqual(3 * HTTPS);
    expect(recorder.rowsRead('users')).toBeLessThanOrEqual(2 * HTTPS * 3);
    expect(recorder.rowsRead('certificate_status')).toBeLessThanOrEqual(3 * HTTPS);
  });
});
