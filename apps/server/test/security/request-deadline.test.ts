// The request deadline (PORTICO_REQUEST_TIMEOUT) on a real listening app: a signed-in request
// whose body, or whose headers, never finish arriving, and a connection that sends nothing, are
// answered 408 and their connection closed, while the live-log WebSocket, long-lived by design,
// stays open well past the deadline.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createProxy, signedInClient } from '../support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../support/test-app';
import type { TestClient } from '../support/test-client';
import { cookieHeader } from '../support/ws-test-helpers';

const DEADLINE_SECONDS = 1;

/** Sends `head` on a raw connection and then nothing; resolves with all it got once it closed. */
function stall(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(received).toString('latin1')));
    socket.write(head);
  });
}

describe('request deadline', () => {
  let t: TTestApp;
  let port: number;
  let client: TestClient;
  let proxyId: string;

  beforeAll(async () => {
    t = await createTestApp('pglite', { config: { requestTimeoutSeconds: DEADLINE_SECONDS } });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
    ({ client } = await signedInClient(t));
    ({ id: proxyId } = await createProxy(client));
    await client.fetchCsrfToken();
  });
  afterAll(() => t.close());

  it('answers 408 and closes a signed-in request whose body never arrives', async () => {
    const answer = await stall(
      port,
      [
        'POST /api/proxy-configurations HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        'Content-Length: 400',
        `Cookie: ${cookieHeader(client.cookies)}`,
        `x-csrf-token: ${client.csrfToken}`,
        '',
        '{"domain":',
      ].join('\r\n'),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    // Nothing of the half-sent configuration was stored.
    const list = await client.request({ method: 'GET', url: '/api/user/proxy-configurations' });
    expect(list.json()).toHaveLength(1);
  });

  it('answers 408 and closes a request whose headers never end', async () => {
    const answer = await stall(
      port,
      `GET /api/auth/user HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookieHeader(client.cookies)}\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes a connection that sends nothing at all', async () => {
    expect(await stall(port, '')).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('keeps the live-log socket open past the deadline', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?configId=${proxyId}`, {
      headers: { cookie: cookieHeader(client.cookies), origin: `http://127.0.0.1:${port}` },
    });
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    // Three deadlines of silence from the client.
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_SECONDS * 3000));
    expect(closed).toBe(false);
    const pong = new Promise((resolve) => socket.once('pong', resolve));
    socket.ping();
    await pong;
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });
});
