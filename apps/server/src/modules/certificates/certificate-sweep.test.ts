// The certificate watch's pass: reads the HTTPS sites a batch at a time (never the whole table
// at once), checks a bounded few at a time, each once, and reports its duration. The check
// itself is replaced by a counter here (certificates.lab.test.ts runs real ones). On PGlite and
// on PostgreSQL when TEST_DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { proxyConfigurations } from '../../db/schema';
import { createCertificateActionHistory } from '../deployments/certificate-action-history.repository';
import { createProxyCertificateReads } from '../proxies/proxy-certificates.repository';
import { sweep, type TWatchDeps } from './certificate-watch';
import { createCertificatesRepository } from './certificates.repository';

describe.each(testDatabaseKinds())('certificate sweep on %s', (kind) => {
  let t: TTestApp;
  const watchedIds: string[] = [];
  const skippedIds: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    const { user } = await signedInClient(t);
    const rows = await t.database.db
      .insert(proxyConfigurations)
      .values(
        Array.from({ length: 14 }, (_, i) => ({
          userId: user.id,
          domain: `sweep${process.pid}${kind}${i}.example.com`,
          serverIp: '203.0.113.40',
          email: 'o@example.com',
          sslConfigured: i !== 11,
          status: i === 12 ? ('deploying' as const) : ('completed' as const),
        })),
      )
      .returning({ id: proxyConfigurations.id });
    rows.forEach((row, i) => {
      (i === 11 || i === 12 ? skippedIds : watchedIds).push(row.id);
    });
  });
  afterAll(async () => t?.close());

  it('checks every HTTPS site once, in batches, at most `concurrency` at a time', async () => {
    const certificates = createCertificatesRepository(t.database.db, {
      proxies: createProxyCertificateReads,
      history: (db) => createCertificateActionHistory(db, createProxyCertificateReads),
    });
    const batches: number[] = [];
    const counted = {
      ...certificates,
      watchedBatch: async (after: string | undefined, limit: number) => {
        const rows = await certificates.watchedBatch(after, limit);
        batches.push(rows.length);
        return rows;
      },
    };
    const logged: string[] = [];
    const deps = {
      certificates: counted,
      alerts: { send: async () => {} },
      now: () => new Date(),
      log: { warn: () => {}, info: (msg: string) => logged.push(msg) },
    } as unknown as TWatchDeps;
    const seen: string[] = [];
    let running = 0;
    let most = 0;
    const result = await sweep(deps, {
      batch: 5,
      concurrency: 3,
      jitterMs: 2,
      check: async (watched) => {
        running += 1;
        most = Math.max(most, running);
        seen.push(watched.proxy.id);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        // One failure is counted and stops nothing.
        if (watched.proxy.id === watchedIds[3]) throw new Error('unreachable');
      },
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(watchedIds));
    expect(seen.some((id) => skippedIds.includes(id))).toBe(false);
    expect(most).toBe(3);
    expect(Math.max(...batches)).toBeLessThanOrEqual(5);
    expect(batches.at(-1)).toBe(0);
    expect(result.failed).toBe(1);
    expect(result.checked).toBe(seen.length - 1);
    expect(logged).toEqual([
      `certificate sweep: ${result.checked} checked, 1 failed, in ${result.ms} ms`,
    ]);
  });
});
