// The account's limit of "Renew now" counts the same when requests come together on several
// instances of one PostgreSQL (on PGlite, one process, together on one): each request counts and
// records under the account's lock, so of six at once with one left exactly one is accepted.
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { instancesOnOneDatabase } from '../../../test/support/instances';
import {
  createProxy,
  markDeployed,
  signedInClient,
} from '../../../test/support/proxies-test-helpers';
import { TEST_APP_OPTIONS, type TTestApp } from '../../../test/support/test-app';
import { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { deployments } from '../../db/schema';

const HOUR = 3_600_000;

describe.each(testDatabaseKinds())('the account limit of Renew now on %s', (kind) => {
  // No workers: the accepted runs stay queued, nothing else touches the runs.
  const instances = instancesOnOneDatabase(kind, { ...TEST_APP_OPTIONS, deploy: { workers: 0 } });
  const { apps } = instances;

  it('of six requests at once with one renewal left, accepts exactly one', async () => {
    const t = { app: apps[0]!, database: instances.testDb.database } as TTestApp;
    const { client } = await signedInClient(t);
    // Nine of the account's ten renewals of the day, two on each of four proxies and one more.
    const now = Date.now();
    const history: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const { id } = await createProxy(client);
      await markDeployed(t, id);
      history.push(id);
    }
    await t.database.db.insert(deployments).values(
      Array.from({ length: 9 }, (_, i) => ({
        configurationId: history[Math.floor(i / 2)]!,
        trigger: 'renew' as const,
        status: 'completed' as const,
        language: 'en',
        createdAt: new Date(now - (10 - i) * HOUR),
      })),
    );
    const fresh: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const { id } = await createProxy(client);
      await markDeployed(t, id);
      fresh.push(id);
    }
    // The same session on every instance (the store is the database), taking turns.
    const clients = apps.map((app) => {
      const c = new TestClient(app, { headers: { 'accept-language': 'en' } });
      for (const [name, value] of client.cookies) c.cookies.set(name, value);
      c.csrfToken = client.csrfToken;
      return c;
    });
    const answers = await Promise.all(
      fresh.map((id, i) =>
        clients[i % clients.length]!.write(
          'POST',
          `/api/proxy-configurations/${id}/certificate/renew`,
        ),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([202, 429, 429, 429, 429, 429]);
    for (const refused of answers.filter((a) => a.statusCode === 429)) {
      expect(refused.json().code).toBe('renewal_limited');
    }
    const recorded = await t.database.db
      .select()
      .from(deployments)
      .where(inArray(deployments.configurationId, fresh));
    expect(recorded).toHaveLength(1);
    expect(
      await t.database.db.select().from(deployments).where(eq(deployments.trigger, 'renew')),
    ).toHaveLength(10);
  });
});
