// Every route Fastify serves, called for real by a signed-out visitor, the owner
// of the resources aimed at, another user and an admin; on PGlite and on PostgreSQL when
// TEST_DATABASE_URL is set. A route without a row in authorization-table.ts fails here.
// And by API tokens (the owner's manage and read tokens, another user's, an admin's),
// none of which may ever appear in an answer again after it was created.
import { describe, expect, it } from 'vitest';
import { SSH_PASSWORD } from '../support/proxies-test-helpers';
import type { TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';
import { cookieHeader, statuses, watch } from '../support/ws-test-helpers';
import { cellRequest, routesWithRequests } from './authorization-requests';
import { WRITE_METHODS } from './authorization-routes';
import {
  ACTORS,
  AUTHORIZATION_TABLE,
  routeKey,
  type TActor,
  type TExpected,
  type TMatrixRow,
  TOKEN_ACTORS,
  type TTokenActor,
  type TTokenExpected,
  tokenExpected,
  WS_REPLAYED,
} from './authorization-table';
import {
  MATRIX_SERVER_PASSWORD,
  send,
  settled,
  snapshot,
  type TMatrixWorld,
  useMatrixWorld,
} from './authorization-world';

const REFUSED = new Set([401, 403, 404]);
type TAnyActor = TActor | TTokenActor;
const isToken = (actor: TAnyActor): actor is TTokenActor =>
  (TOKEN_ACTORS as readonly string[]).includes(actor);
/** Callers aiming at the owner's objects without any right to them. */
const STRANGERS = new Set<TAnyActor>(['other', 'otherToken', 'adminToken']);

describe.each(testDatabaseKinds())('authorization matrix on %s', (kind) => {
  let w: TMatrixWorld;
  useMatrixWorld(kind, (world) => {
    w = world;
  });

  /** The socket cell: the refused upgrade's status, the close code, or WS_REPLAYED. */
  async function socketCell(client: TestClient, actor: TAnyActor): Promise<number> {
    const headers: Record<string, string> = { origin: w.base };
    if (isToken(actor)) headers.authorization = client.defaults.headers!.authorization!;
    else if (actor !== 'anonymous') headers.cookie = cookieHeader(client.cookies);
    const socket = watch(w.base, w.proxy.id, headers);
    if (!(await socket.opened)) return (await socket.ended).httpStatus ?? 0;
    const first = await Promise.race([
      socket.ended.then((end) => end.code),
      socket
        .waitFor((m) => statuses(m).length > 0, 15_000)
        .then(
          () => WS_REPLAYED,
          () => 0,
        ),
    ]);
    if (first === WS_REPLAYED) socket.close();
    // Closed for policy before a single message: nothing about the owner's run leaked.
    else expect(socket.messages, `${actor} on /ws`).toEqual([]);
    return first;
  }

  async function runCell(row: TMatrixRow, actor: TAnyActor): Promise<number> {
    const cell = await cellRequest(row.method, row.url, w);
    const client = isToken(actor)
      ? w.tokenClients[actor]
      : actor === 'anonymous' || cell.freshSession
        ? await w.freshClient(actor)
        : w.clients[actor];
    if (row.url === '/ws') return socketCell(client, actor);

    const write = WRITE_METHODS.has(row.method);
    const before = write ? await snapshot(w.t) : '';
    const response = await send(client, {
      method: row.method,
      url: cell.url,
      payload: cell.payload,
      headers: cell.headers,
    });
    const where = `${actor}: ${row.method} ${cell.url}`;
    expect(response.body, where).not.toContain(SSH_PASSWORD);
    expect(response.body, where).not.toContain(MATRIX_SERVER_PASSWORD);
    expect(response.body, `${where} shows a private key`).not.toContain('PRIVATE KEY');
    for (const token of w.tokens)
      expect(response.body, `${where} shows a token`).not.toContain(token);
    if (STRANGERS.has(actor)) expect(response.body, where).not.toContain(w.proxy.id);
    if (STRANGERS.has(actor)) expect(response.body, where).not.toContain(w.sshServerId);
    if (write && REFUSED.has(response.statusCode)) {
      expect(await snapshot(w.t), `${where} was refused but changed data`).toBe(before);
    }
    await settled(w.t);
    return response.statusCode;
  }

  it('has a row for every route the app serves', () => {
    expect(w.routes.length).toBeGreaterThan(30);
    const rows = new Set(AUTHORIZATION_TABLE.map((r) => routeKey(r.method, r.url)));
    const missing = w.routes.map((r) => routeKey(r.method, r.url)).filter((key) => !rows.has(key));
    expect(missing, 'routes with no row in security/authorization-table.ts').toEqual([]);
  });

  it('has no row (and no request) for a route the app no longer serves', () => {
    const served = new Set(w.routes.map((r) => routeKey(r.method, r.url)));
    const stale = AUTHORIZATION_TABLE.map((r) => routeKey(r.method, r.url)).filter(
      (key) => !served.has(key),
    );
    expect(stale, 'rows in security/authorization-table.ts for routes that are gone').toEqual([]);
    const staleRequests = routesWithRequests().filter((key) => !served.has(key));
    expect(staleRequests, 'requests in authorization-requests.ts for gone routes').toEqual([]);
  });

  it.each(AUTHORIZATION_TABLE)('$method $url', async (row) => {
    const actual = {} as TExpected & TTokenExpected;
    for (const actor of [...ACTORS, ...TOKEN_ACTORS]) actual[actor] = await runCell(row, actor);
    expect(actual, routeKey(row.method, row.url)).toEqual({
      ...row.expected,
      ...tokenExpected(row),
    });
  });

  it('leaves the owner and their proxy in place after every refused cell', async () => {
    const response = await send(w.clients.owner, {
      method: 'GET',
      url: `/api/proxy-configurations/${w.proxy.id}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().domain).toBe(w.proxy.domain);
    // The "nothing changed" comparisons saw real rows, not two empty snapshots.
    expect(await snapshot(w.t)).toContain(w.proxy.id);
  });
});
