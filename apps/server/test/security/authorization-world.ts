// The world the authorization matrix runs in: the real app on a real database, four callers and
// the owner's resources every cell aims at.
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createProxy, signedInClient } from '../support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../support/test-app';
import { newCredentials, TestClient } from '../support/test-client';
import type { TDatabaseKind } from '../support/test-database';
import { routeRecorder, type TRoute } from './authorization-routes';
import type { TActor, TTokenActor } from './authorization-table';

export type TSignedInActor = Exclude<TActor, 'anonymous'>;
/** Every matrix account's password (newCredentials gives them all the same). */
export const MATRIX_PASSWORD = newCredentials().password;
const PASSWORD = MATRIX_PASSWORD;
const LOTS = { max: 10_000, windowMs: 60_000 };
const NO_LIMIT = { perIp: LOTS, perIdentifier: LOTS };

/** Proxies the matrix creates point at a closed local port: a deploy fails fast, offline. */
/** A saved server's password: no answer of any cell may carry it. */
export const MATRIX_SERVER_PASSWORD = `srv-${randomBytes(9).toString('hex')}`;
export const LOCAL_SERVER = { serverIp: '127.0.0.1', sshPort: 1 };

export interface TMatrixWorld {
  t: TTestApp;
  /** http://127.0.0.1:PORT: the app also listens, for the WebSocket. */
  base: string;
  routes: TRoute[];
  clients: Record<TSignedInActor, TestClient>;
  usernames: Record<TSignedInActor, string>;
  /** The owner's long-lived proxy: reads and refused writes aim at it. */
  proxy: { id: string; domain: string };
  destinationId: string;
  /** An account whose role the admin cell "changes" to what it already is. */
  roleTargetId: string;
  loginTarget: string;
  /** A new session for the actor, for cells that replace or end the session they run in. */
  freshClient(actor: TActor): Promise<TestClient>;
  /** A client with the token actor's `Authorization: Bearer` header and no cookie. */
  tokenClients: Record<TTokenActor, TestClient>;
  /** Every token the world made, which no answer may ever carry again. */
  tokens: string[];
  /** A new token of the owner's, to be revoked; its id. */
  freshOwnerToken(): Promise<string>;
  /** A new session of the owner's (not the long-lived one), to be ended; its public id. */
  freshOwnerSession(): Promise<string>;
  freshProxy(): Promise<string>;
  /** A new proxy of the owner's as a completed deployment leaves it (HTTPS on): its id. */
  freshDeployedProxy(): Promise<string>;
  freshDestination(): Promise<string>;
  /** The owner's long-lived saved SSH server (a password server): reads and refused writes. */
  sshServerId: string;
  /** A new saved server of the owner's, to be deleted: its id. */
  freshSshServer(): Promise<string>;
  /** A saved server at LOCAL_SERVER (a closed port): "Check now" answers at once, unreachable. */
  localSshServerId: string;
  close(): Promise<void>;
}

/** A UDP port nobody listens on: DNS checks get "connection refused" without leaving the host. */
async function deadDnsServer(): Promise<string> {
  const socket = createSocket('udp4');
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address();
  socket.close();
  return `127.0.0.1:${port}`;
}

export async function createMatrixWorld(kind: TDatabaseKind): Promise<TMatrixWorld> {
  const recorder = routeRecorder();
  // One key file for the checks and the proxies, as main.ts wires it.
  const keyDir = mkdtempSync(join(tmpdir(), 'portico-matrix-key-'));
  const secretKeyFile = join(keyDir, 'secret.key');
  const t = await createTestApp(kind, {
    onRoute: recorder.onRoute,
    rateLimits: { login: NO_LIMIT, register: NO_LIMIT, twoFactor: NO_LIMIT, reauth: NO_LIMIT },
    config: { dnsServers: [await deadDnsServer()], secretKeyFile },
    // Sockets notice a session removed behind the app's back within a fifth of a second.
    deploy: { socketSessionRecheckMs: 200 },
  });
  const owner = await signedInClient(t);
  const other = await signedInClient(t);
  const admin = await signedInClient(t, 'admin');
  const loginTarget = await signedInClient(t);
  const roleTarget = await signedInClient(t);
  const clients = { owner: owner.client, other: other.client, admin: admin.client };
  const usernames = {
    owner: owner.user.username,
    other: other.user.username,
    admin: admin.user.username,
  };
  const proxy = await createProxy(owner.client, LOCAL_SERVER);
  let destinations = 0;
  const tokens: string[] = [];

  async function newToken(client: TestClient, scope: 'read' | 'manage') {
    const response = await client.write('POST', '/api/account/tokens', {
      name: `matrix ${scope}`,
      scope,
      expiresInDays: null,
      password: PASSWORD,
    });
    if (response.statusCode !== 201) throw new Error(`token: ${response.body}`);
    const created = response.json() as { id: string; token: string };
    tokens.push(created.token);
    return created;
  }
  const bearer = async (client: TestClient, scope: 'read' | 'manage') =>
    new TestClient(t.app, {
      headers: {
        'accept-language': 'en',
        authorization: `Bearer ${(await newToken(client, scope)).token}`,
      },
    });
  const tokenClients: Record<TTokenActor, TestClient> = {
    ownerToken: await bearer(owner.client, 'manage'),
    readToken: await bearer(owner.client, 'read'),
    otherToken: await bearer(other.client, 'manage'),
    adminToken: await bearer(admin.client, 'manage'),
  };

  /** A saved server of the owner's, whose password the secret scans look for. */
  async function freshSshServer(where = { host: '203.0.113.30', port: 22 }) {
    const response = await owner.client.write('POST', '/api/ssh-servers', {
      name: `Matrix server ${randomBytes(3).toString('hex')}`,
      ...where,
      password: MATRIX_SERVER_PASSWORD,
    });
    if (response.statusCode !== 201) throw new Error(`ssh server: ${response.body}`);
    return response.json().id as string;
  }

  async function freshDestination() {
    destinations += 1;
    const response = await admin.client.write('POST', '/api/admin/destination-servers', {
      name: `Matrix ${destinations} ${randomBytes(3).toString('hex')}`,
      endpoint: 'http://app.internal:8080',
    });
    if (response.statusCode !== 201) throw new Error(`destination: ${response.body}`);
    return response.json().id as string;
  }

  return {
    t,
    base: await t.app.listen({ port: 0, host: '127.0.0.1' }),
    routes: recorder.routes(),
    clients,
    usernames,
    proxy: { id: proxy.id, domain: proxy.input.domain },
    destinationId: await freshDestination(),
    roleTargetId: roleTarget.user.id,
    loginTarget: loginTarget.user.username,
    async freshClient(actor) {
      const client = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
      if (actor !== 'anonymous') {
        const response = await client.login(usernames[actor], PASSWORD);
        if (response.statusCode !== 200) throw new Error(`login: ${response.body}`);
      }
      return client;
    },
    tokenClients,
    tokens,
    freshOwnerToken: async () => (await newToken(owner.client, 'read')).id,
    async freshOwnerSession() {
      const before = new Set(await sessionIds(owner.client));
      const response = await new TestClient(t.app).login(usernames.owner, PASSWORD);
      if (response.statusCode !== 200) throw new Error(`login: ${response.body}`);
      const added = (await sessionIds(owner.client)).find((id) => !before.has(id));
      if (!added) throw new Error('the new session is not in the list');
      return added;
    },
    freshProxy: async () => (await createProxy(owner.client, LOCAL_SERVER)).id,
    async freshDeployedProxy() {
      const { id } = await createProxy(owner.client, LOCAL_SERVER);
      await t.database.db.execute(
        sql`update proxy_configurations set status = 'completed', ssl_configured = true
            where id = ${id}`,
      );
      return id;
    },
    freshDestination,
    sshServerId: await freshSshServer(),
    freshSshServer: () => freshSshServer(),
    localSshServerId: await freshSshServer({
      host: LOCAL_SERVER.serverIp,
      port: LOCAL_SERVER.sshPort,
    }),
    async close() {
      await t.close();
      rmSync(keyDir, { recursive: true, force: true });
    },
  };
}

async function sessionIds(client: TestClient): Promise<string[]> {
  const response = await client.request({ method: 'GET', url: '/api/account/sessions' });
  return (response.json() as { id: string }[]).map((s) => s.id);
}

/** The world for one describe block: built before its tests, closed after them. */
export function useMatrixWorld(kind: TDatabaseKind, ready: (world: TMatrixWorld) => void) {
  let world: TMatrixWorld | undefined;
  beforeAll(async () => {
    world = await createMatrixWorld(kind);
    ready(world);
  });
  afterAll(async () => world?.close());
}

/**
 * Sends a cell's request; writes carry the client's own valid CSRF token, except a token
 * client's (an API token needs none, and its client has no session to hold one).
 */
export async function send(
  client: TestClient,
  options: InjectOptions & { method: string; url: string },
): Promise<LightMyRequestResponse> {
  const headers = { ...(options.headers as Record<string, string> | undefined) };
  const bearer = client.defaults.headers?.authorization !== undefined;
  if (options.method !== 'GET' && options.method !== 'HEAD' && !bearer) {
    headers['x-csrf-token'] = client.csrfToken ?? (await client.fetchCsrfToken());
  }
  return client.request({ ...options, headers });
}

/** Rows of a raw query: node-postgres and PGlite both answer `{ rows }`. */
async function rowsOf<T>(t: TTestApp, query: SQL): Promise<T[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Every application table, every row, but for bookkeeping that changes on its own: sessions
 * (fetching a token writes one), rate-limit hits (counting a refused attempt is what a limit is
 * for) and scheduled-run slots (the reaper claims them on its clock). A refused write must leave
 * this exactly as it was.
 */
export async function snapshot(t: TTestApp): Promise<string> {
  const tables = await rowsOf<{ table_name: string }>(
    t,
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' 
          and table_name not in ('session', 'rate_limit_hits', 'scheduled_runs')
        order by table_name`,
  );
  const parts: string[] = [];
  for (const { table_name: name } of tables) {
    const rows = await rowsOf<unknown>(t, sql.raw(`select * from "${name}"`));
    parts.push(name, ...rows.map((row) => JSON.stringify(row)).sort());
  }
  return parts.join('\n');
}

/** The tables whose rows differ between two snapshots (a table's name, then its rows as JSON). */
export function changedTables(before: string, after: string): string[] {
  const byTable = (text: string) => {
    const tables = new Map<string, string[]>();
    let current = '';
    for (const line of text.split('\n')) {
      if (line.startsWith('{')) {
        tables.get(current)?.push(line);
      } else {
        current = line;
        tables.set(current, []);
      }
    }
    return tables;
  };
  const a = byTable(before);
  const b = byTable(after);
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((n) => (a.get(n) ?? []).join('\n') !== (b.get(n) ?? []).join('\n'));
}

/**
 * Waits until no proxy is deploying, no run (a certificate action too, a server's "redeploy all"
 * or "check all certificates") is unfinished and no certificate check is pending, so a finished
 * cell's work cannot change the next one.
 */
export async function settled(t: TTestApp): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [row] = await rowsOf<{ n: number }>(
      t,
      sql`select ((select count(*) from proxy_configurations where status = 'deploying')
          + (select count(*) from deployments where status in ('queued', 'running'))
          + (select count(*) from certificate_status where check_requested_at is not null)
          + (select count(*) from server_runs where state in ('queued', 'running'))
          )::int as n`,
    );
    if (Number(row?.n) === 0) return;
    if (Date.now() > deadline) throw new Error('a deployment is still running');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
