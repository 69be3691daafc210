// The admin's certificates needing attention in pages (docs/PRODUCT.md#lists-in-pages): each
// reason asked in SQL finds exactly the rows the whole list's reasons find; the walk neither
// repeats nor skips; `q` finds the domain or owner; on PGlite and on PostgreSQL when
// TEST_DATABASE_URL is set.
import { ZAttentionPage } from '@portico/shared/certificates/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxy,
  markDeployed,
  signedInClient,
} from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { certificateStatus, deployments } from '../../db/schema';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDatabaseKinds())('certificates needing attention in pages on %s', (kind) => {
  let t: TTestApp;
  let admin: TestClient;
  let owner: { client: TestClient; user: { id: string; username: string } };
  /** The owner's proxies by what is wrong with them. */
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind, { deploy: { workers: 0 } });
    admin = (await signedInClient(t, 'admin', '198.18.201.1')).client;
    owner = await signedInClient(t, 'user', '198.18.201.2');
    const now = Date.now();
    const served = (daysLeft: number, lifetime = 90, fingerprint = 'AA') => ({
      fingerprint,
      notBefore: new Date(now - (lifetime - daysLeft) * DAY).toISOString(),
      notAfter: new Date(now + daysLeft * DAY).toISOString(),
      issuer: 'Test CA',
      names: ['x'],
    });
    const check = (ok: boolean, at = now) => ({
      checkedAt: new Date(at).toISOString(),
      ok,
      problem: ok ? null : { key: 'certificates.problem.refused', params: { where: 'x:443' } },
      httpRedirects: true,
      httpProblem: null,
    });
    const renewal = (working: boolean) => ({
      method: 'systemd-timer' as const,
      where: 'certbot.timer',
      working,
      setUpByPortico: false,
      notes: [],
      checkedAt: new Date(now).toISOString(),
    });
    const kinds = {
      fine: { served: served(80), lastCheck: check(true) },
      warning: { served: served(20), lastCheck: check(true) },
      danger: { served: served(3), lastCheck: check(true) },
      expired: { served: served(-2), lastCheck: check(true) },
      neverServed: { served: null, lastCheck: check(false) },
      checkFailed: { served: served(60), lastCheck: check(false) },
      notReloaded: {
        served: served(60, 90, 'OLD'),
        lastCheck: check(true),
        onServer: { ...served(89, 90, 'NEW'), readAt: new Date(now - 60_000).toISOString() },
      },
      // Read after the check: the moment between a renewal and the next check does not count.
      reloadPending: {
        served: served(60, 90, 'OLD'),
        lastCheck: check(true, now - 120_000),
        onServer: { ...served(89, 90, 'NEW'), readAt: new Date(now - 60_000).toISOString() },
      },
      noRenewal: { served: served(80), lastCheck: check(true), renewal: renewal(false) },
      renewalFine: { served: served(80), lastCheck: check(true), renewal: renewal(true) },
      // An upload renews by its owner's hand: not a broken renewal, its expiry is what counts.
      uploadedFine: {
        served: served(80),
        lastCheck: check(true),
        renewal: { ...renewal(false), method: 'uploaded' as const, where: null },
      },
      actionFailed: { served: served(80), lastCheck: check(true) },
      actionRetried: { served: served(80), lastCheck: check(true) },
      noStatusRow: null,
    };
    for (const [name, status] of Object.entries(kinds)) {
      const { id } = await createProxy(owner.client, {
        domain: `${name.toLowerCase()}.attention.test`,
      });
      await markDeployed(t, id);
      ids[name] = id;
      if (status)
        await t.database.db.insert(certificateStatus).values({ configurationId: id, ...status });
    }
    const action = (name: string, status: 'failed' | 'completed', at: number) => ({
      configurationId: ids[name]!,
      trigger: 'renew' as const,
      status,
      createdAt: new Date(at),
    });
    await t.database.db
      .insert(deployments)
      .values([
        action('actionFailed', 'failed', now - 5000),
        action('actionRetried', 'failed', now - 5000),
        action('actionRetried', 'completed', now - 1000),
      ]);
  });
  afterAll(async () => t?.close());

  const get = async (query: string, client = admin) => {
    const answer = await client.request({ method: 'GET', url: `/api/admin/certificates${query}` });
    return { status: answer.statusCode, body: answer.json() };
  };

  it('finds in pages the very rows the whole list finds, each once, soonest end first', async () => {
    const whole = (await get('')).body as { configurationId: string; reasons: string[] }[];
    const mine = new Set(Object.values(ids));
    const expected = whole.filter((row) => mine.has(row.configurationId));
    const name = (id: string) => Object.keys(ids).find((k) => ids[k] === id);
    expect(expected.map((row) => name(row.configurationId)).sort()).toEqual(
      [
        'actionFailed',
        'checkFailed',
        'danger',
        'expired',
        'neverServed',
        'noRenewal',
        'notReloaded',
        'warning',
      ].sort(),
    );
    const walked: { configurationId: string; reasons: string[] }[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await get(
        `?q=attention.test&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(status).toBe(200);
      const page = ZAttentionPage.parse(body);
      expect(page.total).toBe(8);
      walked.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    // The same rows with the same reasons as the whole list.
    expect(walked.map((r) => [r.configurationId, r.reasons]).sort()).toEqual(
      expected.map((r) => [r.configurationId, r.reasons]).sort(),
    );
    // Certificates ending at the same moment go by id.
    const byId = (...names: string[]) => names.sort((a, b) => ids[a]!.localeCompare(ids[b]!));
    expect(walked.map((r) => name(r.configurationId))).toEqual([
      'neverServed',
      'expired',
      'danger',
      'warning',
      ...byId('checkFailed', 'notReloaded'),
      ...byId('actionFailed', 'noRenewal'),
    ]);
  });

  it('finds the owner by name, and a domain; refuses anyone but an admin', async () => {
    const byOwner = ZAttentionPage.parse((await get(`?q=${owner.user.username}`)).body);
    expect(byOwner.total).toBe(8);
    const byDomain = ZAttentionPage.parse((await get('?q=EXPIRED.attention')).body);
    expect(byDomain.items.map((r) => r.configurationId)).toEqual([ids.expired]);
    expect((await get('?limit=5', owner.client)).status).toBe(403);
  });
});
