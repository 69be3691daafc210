// Two Portico instances on one PostgreSQL behind a real nginx on loopback, configured with the
// block docs/OPERATIONS.md gives (between its balancer-config markers; only the ports change and
// TLS is left out). Round robin, no stickiness: a client's requests land on both instances.
// Needs TEST_DATABASE_URL and /usr/sbin/nginx; PostgreSQL only (PGlite is one process).
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startBalancer, type TBalancer } from '../../../testbed/src/balancer';
import { openDatabase, type TDatabase } from '../src/db/client';
import { users } from '../src/db/schema';
import { proxyInput } from './support/proxies-test-helpers';
import { testSecretKeyFile } from './support/ssh-test-fixtures';
import { buildTestApp, TEST_APP_OPTIONS } from './support/test-app';
import { newCredentials } from './support/test-client';
import { createTestDatabase, type TTestDatabase, testDatabaseKinds } from './support/test-database';
import { progressLines, statuses, watch } from './support/ws-test-helpers';

/** A browser-like client over real HTTP: cookies and the CSRF token kept between calls. */
class HttpClient {
  readonly cookies = new Map<string, string>();
  private csrf: string | undefined;
  constructor(readonly base: string) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call(method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { 'accept-language': 'en' };
    if (method !== 'GET') {
      this.csrf ??= (
        (await (await this.call('GET', '/api/csrf-token')).json()) as { token: string }
      ).token;
      headers['x-csrf-token'] = this.csrf;
      if (body !== undefined) headers['content-type'] = 'application/json';
    }
    // After the token: fetching it may have started the session.
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    // A sign-in or sign-out starts a new session, with a new CSRF secret (a refused one not).
    if (response.ok && /^\/api\/(login|register|logout)$/.test(path)) this.csrf = undefined;
    return response;
  }
}

const postgresOnly = testDatabaseKinds().filter((kind) => kind === 'postgres');

describe.each(postgresOnly)('two instances behind nginx on %s', () => {
  let testDb: TTestDatabase;
  let second: TDatabase;
  let balancer: TBalancer | undefined;
  let base = '';
  const apps: Awaited<ReturnType<typeof buildTestApp>>[] = [];
  /** Which instance served each request: [instance, method, path]. */
  const served: [number, string, string][] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    second = await openDatabase({ databaseUrl: testDb.url!, poolSize: 4 });
    const secretKeyFile = testSecretKeyFile();
    const ports: number[] = [];
    for (const [i, database] of [testDb.database, second].entries()) {
      const app = await buildTestApp({
        ...TEST_APP_OPTIONS,
        database,
        config: { ...TEST_APP_OPTIONS.config, trustProxy: ['127.0.0.1'], secretKeyFile },
        // A short socket session check, so a sign-out elsewhere shows within the test.
        deploy: { socketSessionRecheckMs: 300 },
      });
      app.addHook('onRequest', async (request) => {
        served.push([i, request.method, request.url.split('?')[0]!]);
      });
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      ports.push(Number(new URL(address).port));
      apps.push(app);
    }
    balancer = await startBalancer(ports);
    base = balancer.base;
  });

  afterAll(async () => {
    await balancer?.stop();
    for (const app of apps) await app.close();
    await second?.close();
    await testDb?.drop();
  });

  it('wrong passwords spread over both instances hit the limit at the same count as on one', async () => {
    const client = new HttpClient(base);
    const from = served.length;
    const codes: number[] = [];
    // The default limit: 10 wrong passwords for one account in 10 minutes, then 429.
    for (let i = 0; i < 11; i++) {
      codes.push(
        (
          await client.call('POST', '/api/login', {
            identifier: 'spread_user',
            password: 'Wrong1234',
          })
        ).status,
      );
    }
    expect(codes).toEqual([...Array(10).fill(401), 429]);
    const logins = served.slice(from).filter(([, m, p]) => m === 'POST' && p === '/api/login');
    expect(new Set(logins.map(([i]) => i))).toEqual(new Set([0, 1]));
  });

  it('a socket on one instance shows every line of a run once, in order, while the API calls land on both', async () => {
    const client = new HttpClient(base);
    expect((await client.call('POST', '/api/register', newCredentials('lb'))).status).toBe(201);
    const created = await client.call(
      'POST',
      '/api/proxy-configurations',
      proxyInput({ serverIp: '127.0.0.1', sshPort: await freePort() }),
    );
    expect(created.status).toBe(200);
    const id = ((await created.json()) as { id: string }).id;
    const from = served.length;
    const socket = watch(base, id, {
      cookie: client.cookieHeader(),
      'accept-language': 'en',
      // As a browser sends it: the socket is accepted from the same origin only.
      origin: base,
    });
    await socket.waitFor((m) => statuses(m).length > 0);
    const socketOn = served.slice(from).find(([, , p]) => p === '/ws')![0];
    // Nothing listens on the port: the run fails at its connection, wherever it is worked.
    const started = await client.call('POST', `/api/deploy/${id}`);
    expect(started.status).toBe(202);
    const run = ((await started.json()) as { deploymentId: string }).deploymentId;
    await socket.waitFor((m) => ['completed', 'failed'].includes(statuses(m).at(-1) ?? ''));
    expect(statuses(socket.messages).at(-1)).toBe('failed');
    const stored = (await (await client.call('GET', `/api/deployment-logs/${id}`)).json()) as {
      id: number;
      deploymentId: string;
    }[];
    const streamed = progressLines(socket.messages).filter((l) => l.deploymentId === run);
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.map((l) => l.id)).toEqual(
      stored.filter((l) => l.deploymentId === run).map((l) => l.id),
    );
    const api = served.slice(from).filter(([, , p]) => p.startsWith('/api/'));
    expect(api.some(([i]) => i !== socketOn)).toBe(true);
    socket.close();
  });

  it('a sign-out served by one instance ends the socket held by the other', async () => {
    const client = new HttpClient(base);
    expect((await client.call('POST', '/api/register', newCredentials('lbout'))).status).toBe(201);
    const created = await client.call('POST', '/api/proxy-configurations', proxyInput());
    const id = ((await created.json()) as { id: string }).id;
    const from = served.length;
    const socket = watch(base, id, { cookie: client.cookieHeader(), origin: base });
    expect(await socket.opened).toBe(true);
    const socketOn = served.slice(from).find(([, , p]) => p === '/ws')![0];
    // Straight to the other instance, so the sign-out is certain to be served there.
    const other = apps[1 - socketOn]!;
    const direct = new HttpClient(
      `http://127.0.0.1:${(other.server.address() as { port: number }).port}`,
    );
    for (const [k, v] of client.cookies) direct.cookies.set(k, v);
    expect((await direct.call('POST', '/api/logout')).status).toBe(200);
    // Closed by its own instance at its next session check (1008: policy violation).
    expect(await socket.ended).toEqual({ code: 1008, reason: 'session ended' });
  });

  /** Whichever instance served the socket opened since `from`, and a client sent straight to the other. */
  function otherInstance(from: number, cookiesOf: HttpClient) {
    const socketOn = served.slice(from).find(([, , p]) => p === '/ws')![0];
    const other = apps[1 - socketOn]!;
    const direct = new HttpClient(
      `http://127.0.0.1:${(other.server.address() as { port: number }).port}`,
    );
    for (const [k, v] of cookiesOf.cookies) direct.cookies.set(k, v);
    return direct;
  }

  it("a new password set on one instance ends the sockets of the account's other sessions held by the other", async () => {
    const creds = newCredentials('lbpw');
    const laptop = new HttpClient(base);
    expect((await laptop.call('POST', '/api/register', creds)).status).toBe(201);
    const phone = new HttpClient(base);
    expect(
      (
        await phone.call('POST', '/api/login', {
          identifier: creds.username,
          password: creds.password,
        })
      ).status,
    ).toBe(200);
    const created = await laptop.call('POST', '/api/proxy-configurations', proxyInput());
    const id = ((await created.json()) as { id: string }).id;
    const from = served.length;
    const socket = watch(base, id, { cookie: phone.cookieHeader(), origin: base });
    expect(await socket.opened).toBe(true);
    const direct = otherInstance(from, laptop);
    const changed = await direct.call('PUT', '/api/account/password', {
      currentPassword: creds.password,
      newPassword: 'Changed123',
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ endedSessions: 1, revokedTokens: 0 });
    expect(await socket.ended).toEqual({ code: 1008, reason: 'session ended' });
  });

  it("an admin demoted on one instance loses the socket on another user's proxy held by the other", async () => {
    const owner = new HttpClient(base);
    expect((await owner.call('POST', '/api/register', newCredentials('lbown'))).status).toBe(201);
    const created = await owner.call('POST', '/api/proxy-configurations', proxyInput());
    const id = ((await created.json()) as { id: string }).id;
    const admins: { client: HttpClient; id: string }[] = [];
    for (const prefix of ['lbadm', 'lbdem']) {
      const client = new HttpClient(base);
      const response = await client.call('POST', '/api/register', newCredentials(prefix));
      const user = ((await response.json()) as { user: { id: string } }).user;
      admins.push({ client, id: user.id });
    }
    await testDb.database.db
      .update(users)
      .set({ role: 'admin' })
      .where(
        inArray(
          users.id,
          admins.map((a) => a.id),
        ),
      );
    const [admin, demoted] = admins as [(typeof admins)[0], (typeof admins)[0]];
    const from = served.length;
    const socket = watch(base, id, { cookie: demoted.client.cookieHeader(), origin: base });
    expect(await socket.opened).toBe(true);
    const direct = otherInstance(from, admin.client);
    const changed = await direct.call('PATCH', `/api/admin/users/${demoted.id}/role`, {
      role: 'user',
    });
    expect(changed.status).toBe(200);
    expect(await socket.ended).toEqual({ code: 1008, reason: 'demoted' });
  });

  // Last: it stops an instance.
  it('with one instance stopped, every request is answered by the other', async () => {
    await apps[1]!.close();
    const from = served.length;
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await fetch(`${base}/readyz`)).status);
    expect(answers).toEqual(Array(6).fill(200));
    expect(new Set(served.slice(from).map(([i]) => i))).toEqual(new Set([0]));
  });
});
