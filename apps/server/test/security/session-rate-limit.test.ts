// Login throttling against a forged X-Forwarded-For. modules/auth/rate-limit.test.ts
// covers the two ends: no trusted proxy (rotating X-Forwarded-For from one socket still counts as
// one client) and PORTICO_TRUST_PROXY=true (each forwarded client counts on its own). This file
// covers the settings the docs recommend (the proxy's address, or a hop count): a client behind
// the proxy that prepends made-up addresses is still one client, and a client that reaches
// Portico directly cannot claim to be forwarded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TConfig } from '../../src/config';
import type { TAuthRateLimits } from '../../src/lib/rate-limits';
import { createTestApp, type TTestApp } from '../support/test-app';
import { TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';

const PER_IP = 3;
const limits: Partial<TAuthRateLimits> = {
  login: {
    perIp: { max: PER_IP, windowMs: 60_000 },
    perIdentifier: { max: 100, windowMs: 60_000 },
  },
  register: {
    perIp: { max: 100, windowMs: 60_000 },
    perIdentifier: { max: 100, windowMs: 60_000 },
  },
};
const PROXY = '127.0.0.1';
// Reserved documentation ranges: never contacted, only written into headers.
const FORGED = (i: number) => `192.0.2.${i + 1}`;

let attempts = 0;
/** Wrong-password logins, each for a new account name so only the per-address limit can bite. */
async function loginStatuses(client: TestClient, tries: number, xff: (i: number) => string) {
  const statuses: number[] = [];
  for (let i = 0; i < tries; i++) {
    attempts += 1;
    const response = await client.write(
      'POST',
      '/api/login',
      { identifier: `xff_${process.pid}_${attempts}`, password: 'Wrong1234' },
      { 'x-forwarded-for': xff(i) },
    );
    statuses.push(response.statusCode);
  }
  return statuses;
}

const limited = [...Array(PER_IP).fill(401), 429, 429];

describe.each(testDatabaseKinds())('login throttling behind a proxy on %s', (kind) => {
  const apps: TTestApp[] = [];
  async function appTrusting(trustProxy: TConfig['trustProxy']) {
    const t = await createTestApp(kind, { rateLimits: limits, config: { trustProxy } });
    apps.push(t);
    return t;
  }
  let byAddress: TTestApp;
  let byHops: TTestApp;
  const trusting = [
    ['the proxy address', () => byAddress],
    ['a hop count of 1', () => byHops],
  ] as const;
  beforeAll(async () => {
    byAddress = await appTrusting([PROXY]);
    byHops = await appTrusting(1);
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it.each(trusting)(
    'trusting %s: made-up addresses before the real one do not reset the limit',
    async (_label, app) => {
      // The proxy appends the address it saw; everything before it is whatever the client sent.
      const client = new TestClient(app().app, { remoteAddress: PROXY });
      const statuses = await loginStatuses(client, PER_IP + 2, (i) => `${FORGED(i)}, 198.51.100.7`);
      expect(statuses).toEqual(limited);
    },
  );

  it.each(trusting)(
    'trusting %s: two real clients behind the proxy have their own budgets',
    async (_label, app) => {
      const first = new TestClient(app().app, { remoteAddress: PROXY });
      const second = new TestClient(app().app, { remoteAddress: PROXY });
      expect(await loginStatuses(first, PER_IP + 1, () => '198.51.100.20')).toEqual(
        limited.slice(0, -1),
      );
      // The first is blocked; the second, forwarded from another address, is not.
      expect(await loginStatuses(second, PER_IP, () => '198.51.100.21')).toEqual(
        Array(PER_IP).fill(401),
      );
    },
  );

  it('trusting the proxy address: a client connecting directly cannot claim to be forwarded', async () => {
    const direct = new TestClient(byAddress.app, { remoteAddress: '203.0.113.50' });
    expect(await loginStatuses(direct, PER_IP + 2, (i) => FORGED(i))).toEqual(limited);
  });
});
