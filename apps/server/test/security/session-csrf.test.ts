// CSRF over the whole API: every write route Fastify serves (the list comes from
// the app, not from this file) is refused without a token and with another session's token, and
// nothing changes; every read leaves the data as it was (CSRF only guards writes, so a read that
// wrote would be a hole). modules/auth/csrf-session.test.ts covers the token itself (wrong token,
// no session, odd spellings of a path).
import { describe, expect, it } from 'vitest';
import type { TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';
import { cellRequest, type TCell } from './authorization-requests';
import { WRITE_METHODS } from './authorization-routes';
import {
  changedTables,
  send,
  settled,
  snapshot,
  type TMatrixWorld,
  useMatrixWorld,
} from './authorization-world';

// Each case walks every route (more with each feature), so a loaded machine takes minutes: a
// case cut by the default timeout would go on writing into the next one's snapshot.
describe.each(testDatabaseKinds())('CSRF on every route on %s', (kind) => {
  let w: TMatrixWorld;
  useMatrixWorld(kind, (world) => {
    w = world;
  });

  /** The request the authorization matrix sends, with the token header chosen here. */
  function attempt(client: TestClient, method: string, cell: TCell, token?: string) {
    const headers = { ...cell.headers, ...(token ? { 'x-csrf-token': token } : {}) };
    return client.request({
      method: method as 'POST',
      url: cell.url,
      payload: cell.payload,
      headers,
    });
  }

  it('refuses every write without a token or with another session token, changing nothing', {
    timeout: 240_000,
  }, async () => {
    const writes = w.routes.filter((r) => WRITE_METHODS.has(r.method));
    expect(writes.length).toBeGreaterThan(15);
    // Signed in as the owner and as an admin: whoever the caller, the token decides first.
    const foreignToken = await w.clients.other.fetchCsrfToken();
    const problems: string[] = [];
    for (const route of writes) {
      for (const actor of ['owner', 'admin'] as const) {
        const client = w.clients[actor];
        await client.fetchCsrfToken();
        // Built first: some cells create the resource they aim at (a proxy to delete).
        const cell = await cellRequest(route.method, route.url, w);
        const before = await snapshot(w.t);
        for (const [label, token] of [
          ['no token', undefined],
          ["another session's token", foreignToken],
        ] as const) {
          const response = await attempt(client, route.method, cell, token);
          const code = response.statusCode === 403 ? response.json().code : response.statusCode;
          if (code !== 'csrf_invalid') {
            problems.push(`${actor} ${route.method} ${route.url} with ${label}: ${response.body}`);
          }
        }
        if ((await snapshot(w.t)) !== before) {
          problems.push(`${actor} ${route.method} ${route.url}: refused but data changed`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('the same requests with the session own token get past CSRF (the refusals above are real)', {
    timeout: 240_000,
  }, async () => {
    const response = await send(w.clients.owner, {
      method: 'PUT',
      url: `/api/user/proxy-configurations/${w.proxy.id}`,
      payload: (await cellRequest('PUT', '/api/user/proxy-configurations/:id', w)).payload,
    });
    expect(response.statusCode).toBe(200);
  });

  it('changes no data on any read, whoever reads', { timeout: 240_000 }, async () => {
    const reads = w.routes.filter((r) => r.method === 'GET' && !r.websocket);
    expect(reads.length).toBeGreaterThan(15);
    const problems: string[] = [];
    for (const route of reads) {
      const cell = await cellRequest(route.method, route.url, w);
      await settled(w.t);
      for (const actor of ['anonymous', 'owner', 'admin'] as const) {
        const client = actor === 'anonymous' ? await w.freshClient(actor) : w.clients[actor];
        const before = await snapshot(w.t);
        const response = await client.request({ method: 'GET', url: cell.url });
        if (response.statusCode >= 500) problems.push(`${actor} GET ${cell.url}: ${response.body}`);
        const after = await snapshot(w.t);
        if (after !== before) {
          // Which table names the writer (a read, or a background pass that ran meanwhile).
          const tables = changedTables(before, after).join(', ');
          problems.push(`${actor} GET ${cell.url} wrote data (${tables})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
