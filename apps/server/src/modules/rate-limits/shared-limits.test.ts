// Rate limits count the same whether one instance or several serve the attempts: on PostgreSQL
// the counters are rows every instance updates, on PGlite (one process) the limiter's memory.
import { describe, expect, it } from 'vitest';
import { instancesOnOneDatabase } from '../../../test/support/instances';
import { TEST_APP_OPTIONS } from '../../../test/support/test-app';
import { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import type { buildApp } from '../../app';
import { openDatabase } from '../../db/client';
import type { TAuthRateLimits } from '../../lib/rate-limits';
import { createRateLimitHitsRepository } from './rate-limit-hits.repository';

const limits: Partial<TAuthRateLimits> = {
  login: { perIp: { max: 50, windowMs: 60_000 }, perIdentifier: { max: 5, windowMs: 60_000 } },
};
// Five wrong passwords are answered 401, the sixth 429, wherever each one lands.
const EXPECTED = [401, 401, 401, 401, 401, 429, 429];

type TApp = Awaited<ReturnType<typeof buildApp>>;

async function attempts(apps: TApp[], identifier: string): Promise<number[]> {
  const clients = apps.map((app) => new TestClient(app, { remoteAddress: '10.9.0.1' }));
  const statuses: number[] = [];
  for (let i = 0; i < EXPECTED.length; i++) {
    // Spread like a round-robin balancer: each attempt on the next instance.
    const client = clients[i % clients.length]!;
    statuses.push((await client.login(identifier, 'Wrong1234')).statusCode);
  }
  return statuses;
}

describe.each(testDatabaseKinds())('rate limits on %s', (kind) => {
  const instances = instancesOnOneDatabase(kind, {
    ...TEST_APP_OPTIONS,
    rateLimits: limits,
    deploy: { workers: 0 },
  });
  const { apps } = instances;

  it('one instance answers 429 at the sixth wrong password for one account', async () => {
    expect(await attempts(apps.slice(0, 1), 'one_instance')).toEqual(EXPECTED);
  });

  // Only PostgreSQL has a second instance (PGlite's data dir belongs to one process).
  const onPostgres = kind === 'postgres' ? it : undefined;
  onPostgres?.('attempts spread over two instances hit the limit at the same count', async () => {
    expect(await attempts(apps, 'two_instances')).toEqual(EXPECTED);
    // The wait the instance that did not count the last attempt tells is the shared one.
    const other = new TestClient(apps[0]!, { remoteAddress: '10.9.0.2' });
    const blocked = await other.login('two_instances', 'Wrong1234');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(50);
  });

  onPostgres?.(
    'concurrent hits from two connections are each counted once, and an ended window starts at 1',
    async () => {
      const a = createRateLimitHitsRepository(instances.testDb.database.db);
      const second = await openDatabase({ databaseUrl: instances.testDb.url!, poolSize: 4 });
      try {
        const b = createRateLimitHitsRepository(second.db);
        const hits = await Promise.all(
          Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).hit('concurrent', 60_000)),
        );
        expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(
          Array.from({ length: 20 }, (_, i) => i + 1),
        );
        await a.hit('short', 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await b.hit('short', 60_000)).count).toBe(1);
        await b.sweep();
        expect((await a.hit('short', 60_000)).count).toBe(2);
      } finally {
        await second.close();
      }
    },
  );
});
