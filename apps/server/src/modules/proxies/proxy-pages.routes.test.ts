// The proxy lists in pages (docs/PRODUCT.md#lists-in-pages): keyset paging that neither repeats
// nor skips a row while rows are inserted, search, filters, counts, the owner's rows only, and
// the whole list unchanged without list parameters; on PGlite and on PostgreSQL when
// TEST_DATABASE_URL is set.
import { ZProxyPage } from '@portico/shared/proxy/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestFirstIds } from '../../../test/support/keyset-order';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import {
  certificateStatus,
  proxyConfigurations,
  type TNewProxyConfigurationRow,
} from '../../db/schema';

const DAY = 24 * 60 * 60 * 1000;
let counter = 0;

/** A row as issue 38 inserts them: straight into the table, `at` its creation time. */
function row(userId: string, at: Date, overrides: Partial<TNewProxyConfigurationRow> = {}) {
  counter += 1;
  return {
    userId,
    domain: `pg${process.pid}n${counter}.example.com`,
    serverIp: '203.0.113.10',
    email: 'owner@example.com',
    targetServer: `http://10.0.0.1:${3000 + (counter % 1000)}`,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  } satisfies TNewProxyConfigurationRow;
}

describe.each(testDatabaseKinds())('proxy lists in pages on %s', (kind) => {
  let t: TTestApp;
  let owner: { client: TestClient; user: { id: string } };
  let other: { client: TestClient; user: { id: string } };
  /** The owner's 250 proxies, newest first. */
  let walked: string[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = await signedInClient(t);
    other = await signedInClient(t);
    const base = Date.now() - 1000 * DAY;
    // Pairs share a creation time: the id orders them, and the walk must not lose either.
    const rows = Array.from({ length: 250 }, (_, i) =>
      row(owner.user.id, new Date(base + Math.floor(i / 2) * 60_000)),
    );
    const inserted = await t.database.db
      .insert(proxyConfigurations)
      .values(rows)
      .returning({ id: proxyConfigurations.id, createdAt: proxyConfigurations.createdAt });
    walked = newestFirstIds(inserted);
    await t.database.db
      .insert(proxyConfigurations)
      .values([row(other.user.id, new Date(base)), row(other.user.id, new Date(base))]);
  });
  afterAll(async () => t?.close());

  async function page(client: TestClient, query: string, language = 'en') {
    const response = await client.request({
      method: 'GET',
      url: `/api/user/proxy-configurations?${query}`,
      headers: { 'accept-language': language },
    });
    return response;
  }

  it('walks 250 proxies in pages of 50 with no repeat or gap while one is inserted', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await page(owner.client, `limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.statusCode).toBe(200);
      const body = ZProxyPage.parse(response.json());
      seen.push(...body.items.map((item) => item.id));
      cursor = body.nextCursor;
      pages += 1;
      if (pages === 2) {
        // Newer than every row: it belongs before the pages already read, never in the walk.
        await t.database.db.insert(proxyConfigurations).values(row(owner.user.id, new Date()));
      }
    } while (cursor && pages < 10);
    expect(pages).toBe(5);
    expect(seen).toEqual(walked);
    expect(new Set(seen).size).toBe(250);
  });

  it('counts per status over the filters, and never shows another user', async () => {
    const response = await page(owner.client, 'limit=5');
    const body = ZProxyPage.parse(response.json());
    expect(body.total).toBe(251);
    expect(body.counts.status.pending).toBe(251);
    expect(body.counts.status.completed).toBe(0);
    const theirs = ZProxyPage.parse((await page(other.client, 'limit=50')).json());
    expect(theirs.total).toBe(2);
    expect(theirs.items.every((item) => item.userId === other.user.id)).toBe(true);
  });

  it('finds by domain, target or server, case-insensitively, with % and _ as themselves', async () => {
    const at = new Date(Date.now() - 2000 * DAY);
    const mine = (overrides: Partial<TNewProxyConfigurationRow>) =>
      row(owner.user.id, at, overrides);
    await t.database.db
      .insert(proxyConfigurations)
      .values([
        mine({ domain: `needle-a_b${process.pid}.example.com` }),
        mine({ domain: `needle-axb${process.pid}.example.com` }),
        mine({ targetServer: 'http://needle-target.internal:8080/100%' }),
        mine({ serverIp: '198.51.100.77' }),
      ]);
    const found = async (q: string) =>
      ZProxyPage.parse((await page(owner.client, `q=${encodeURIComponent(q)}`)).json());
    expect((await found('NEEDLE-A_B')).items.map((i) => i.domain)).toEqual([
      `needle-a_b${process.pid}.example.com`,
    ]);
    expect((await found(`a_b${process.pid}`)).total).toBe(1);
    expect((await found('needle')).total).toBe(3);
    expect((await found('100%')).items.map((i) => i.targetServer)).toEqual([
      'http://needle-target.internal:8080/100%',
    ]);
    expect((await found('0%')).total).toBe(1);
    expect((await found('198.51.100.7')).items.map((i) => i.serverIp)).toEqual(['198.51.100.77']);
    const byServer = ZProxyPage.parse((await page(owner.client, 'server=198.51.100.77')).json());
    expect(byServer.total).toBe(1);
    // Another user's rows stay out of a search too.
    expect(ZProxyPage.parse((await page(other.client, 'q=needle')).json()).total).toBe(0);
  });

  it('filters by status and certificate state, with the counts of each', async () => {
    const now = Date.now();
    const served = (notBefore: number, notAfter: number) => ({
      fingerprint: 'AA',
      notBefore: new Date(notBefore).toISOString(),
      notAfter: new Date(notAfter).toISOString(),
      issuer: 'test',
      names: [],
    });
    const at = new Date(now - 3000 * DAY);
    const [expired, expiring, fine, failing] = await t.database.db
      .insert(proxyConfigurations)
      .values([
        row(owner.user.id, at, { status: 'completed', sslConfigured: true }),
        row(owner.user.id, at, { status: 'completed', sslConfigured: true }),
        row(owner.user.id, at, { status: 'failed', sslConfigured: true }),
        row(owner.user.id, at, { status: 'completed', sslConfigured: true }),
      ])
      .returning({ id: proxyConfigurations.id });
    const renewal = (working: boolean) => ({
      method: 'cron' as const,
      where: null,
      working,
      setUpByPortico: false,
      notes: [],
      checkedAt: new Date(now).toISOString(),
    });
    await t.database.db.insert(certificateStatus).values([
      { configurationId: expired!.id, served: served(now - 90 * DAY, now - DAY) },
      { configurationId: expiring!.id, served: served(now - 80 * DAY, now + 10 * DAY) },
      // A 6-day certificate 4.5 days from its end: fine by its own lifetime.
      { configurationId: fine!.id, served: served(now - 1.5 * DAY, now + 4.5 * DAY) },
      {
        configurationId: failing!.id,
        served: served(now - 10 * DAY, now + 80 * DAY),
        renewal: renewal(false),
      },
    ]);
    const ids = async (query: string) =>
      ZProxyPage.parse((await page(owner.client, query)).json()).items.map((i) => i.id);
    expect(await ids('certificate=expired')).toEqual([expired!.id]);
    expect(await ids('certificate=expiring')).toEqual([expiring!.id]);
    expect(await ids('certificate=renewal_failing')).toEqual([failing!.id]);
    expect(await ids('status=failed')).toEqual([fine!.id]);
    const completed = ZProxyPage.parse((await page(owner.client, 'status=completed')).json());
    expect(completed.total).toBe(3);
    expect(completed.counts.status.failed).toBe(1);
    expect(completed.counts.certificate).toEqual({ expired: 1, expiring: 1, renewal_failing: 1 });
    const all = ZProxyPage.parse((await page(owner.client, 'limit=1')).json());
    expect(all.counts.certificate).toEqual({ expired: 1, expiring: 1, renewal_failing: 1 });
    expect(all.counts.status).toMatchObject({ completed: 3, failed: 1 });
    // Both filters at once: each count holds to the other filter (one grouped count).
    const expiringOnly = ZProxyPage.parse(
      (await page(owner.client, 'certificate=expiring')).json(),
    );
    expect(expiringOnly.total).toBe(1);
    expect(expiringOnly.counts.status).toMatchObject({ completed: 1, failed: 0 });
    expect(expiringOnly.counts.certificate).toEqual({
      expired: 1,
      expiring: 1,
      renewal_failing: 1,
    });
    const failedOnly = ZProxyPage.parse(
      (await page(owner.client, 'status=failed&certificate=expired')).json(),
    );
    expect(failedOnly.total).toBe(0);
    expect(failedOnly.counts.status).toMatchObject({ completed: 1, failed: 0 });
    expect(failedOnly.counts.certificate).toEqual({ expired: 0, expiring: 0, renewal_failing: 0 });
  });

  it('sorts by the certificate end, soonest first, over pages', async () => {
    const soon = Date.now() + 5 * DAY;
    const at = new Date(Date.now() - 4000 * DAY);
    const ends = [3, 1, 2].map((d) => new Date(soon - d * 60_000));
    const rows = await t.database.db
      .insert(proxyConfigurations)
      .values(ends.map((end) => row(owner.user.id, at, { certificateExpiresAt: end })))
      .returning({ id: proxyConfigurations.id });
    const first = ZProxyPage.parse((await page(owner.client, 'sort=expiry&limit=2')).json());
    expect(first.items.map((i) => i.id)).toEqual([rows[0]!.id, rows[2]!.id]);
    const second = ZProxyPage.parse(
      (await page(owner.client, `sort=expiry&limit=2&cursor=${first.nextCursor}`)).json(),
    );
    expect(second.items[0]!.id).toBe(rows[1]!.id);
    expect(second.items[1]!.certificateExpiresAt).toBeNull();
    // A cursor of one sort is refused by another.
    const mixed = await page(owner.client, `sort=created&cursor=${first.nextCursor}`);
    expect(mixed.statusCode).toBe(400);
  });

  // A page is made of certificate_status and the time too, which no answer version follows: it
  // is never a kept answer (plugins/answer-cache.ts), so a watch's finding shows at once.
  it('answers a page again from the database, not a kept copy', async () => {
    const url = 'limit=1';
    const before = ZProxyPage.parse((await page(owner.client, url)).json());
    const now = Date.now();
    await t.database.db.insert(certificateStatus).values({
      configurationId: walked[7]!,
      served: {
        fingerprint: 'BB',
        notBefore: new Date(now - 90 * DAY).toISOString(),
        notAfter: new Date(now - DAY).toISOString(),
        issuer: 'test',
        names: [],
      },
    });
    const after = ZProxyPage.parse((await page(owner.client, url)).json());
    expect(after.counts.certificate.expired).toBe(before.counts.certificate.expired + 1);
  });

  it('answers the whole list as before without list parameters', async () => {
    const response = await owner.client.request({
      method: 'GET',
      url: '/api/user/proxy-configurations',
    });
    expect(response.statusCode).toBe(200);
    const list = response.json() as { id: string; userId: string }[];
    expect(Array.isArray(list)).toBe(true);
    const total = ZProxyPage.parse((await page(owner.client, 'limit=1')).json()).total;
    expect(list).toHaveLength(total);
    expect(list.every((p) => p.userId === owner.user.id)).toBe(true);
    // The same order the pages walk.
    expect(list.map((p) => p.id).filter((id) => walked.includes(id))).toEqual(walked);
  });

  it('refuses a bad limit or cursor with a clear 400 in the reader language', async () => {
    for (const [query, en, es] of [
      ['limit=0', 'limit must be a whole number from 1 to 200', 'limit debe ser un número entero'],
      [
        'limit=201',
        'limit must be a whole number from 1 to 200',
        'limit debe ser un número entero',
      ],
      [
        'limit=ten',
        'limit must be a whole number from 1 to 200',
        'limit debe ser un número entero',
      ],
      ['cursor=bm90LWpzb24', 'This cursor is not one this list gave', 'Este cursor no es uno'],
      ['cursor=a%2Bb', 'This cursor is not one this list gave', 'Este cursor no es uno'],
      [
        `cursor=${Buffer.from('["created","2026-01-01 00:00:00+00","nope"]').toString('base64url')}`,
        'This cursor is not one this list gave',
        'Este cursor no es uno',
      ],
      ['status=sleeping', 'not one the list knows', 'La lista no conoce'],
    ] as const) {
      const english = await page(owner.client, query, 'en');
      expect([query, english.statusCode]).toEqual([query, 400]);
      expect(english.body).toContain(en);
      const spanish = await page(owner.client, query, 'es');
      expect(spanish.statusCode).toBe(400);
      expect(spanish.body).toContain(es);
    }
  });
});
