// The certificate API as the lab tests read it: a proxy's certificate status, and a check asked
// for and followed to its result.
import { expect } from 'vitest';
import type { TLabServer, TLabStatus } from '../../../../testbed/src/lab';
import { rootProxy } from './lab-app-helpers';
import { signedInClient, waitForStatus } from './proxies-test-helpers';
import type { TTestApp } from './test-app';
import type { TestClient } from './test-client';

/** Reads until `done` holds, every 300 ms for at most 2 minutes. */
export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * `status` and `checkNow` for the proxy `id()` as `client()` (both read when called: tests set
 * them in a `beforeAll`). `stepClock` runs before each check: a test that moved the app's clock
 * steps it on, so each check is told apart from the one before (checks are stamped with it).
 */
export function certificateCalls(
  client: () => TestClient,
  id: () => string,
  stepClock: () => void = () => {},
) {
  const status = async (lang: 'en' | 'es' = 'en') =>
    (
      await client().request({
        method: 'GET',
        url: `/api/proxy-configurations/${id()}/certificate`,
        headers: { 'accept-language': lang },
      })
    ).json();

  /** A check now, through the API, until its result is in. */
  async function checkNow() {
    stepClock();
    const before = (await status()).check?.checkedAt ?? '';
    const response = await client().write(
      'POST',
      `/api/proxy-configurations/${id()}/certificate/check`,
    );
    expect(response.statusCode).toBe(202);
    return waitUntil(
      status,
      (s) => !s.checkPending && s.check !== null && s.check.checkedAt !== before,
      'the check did not end',
    );
  }
  return { status, checkNow };
}

/** A signed-in owner and the root proxy they saved for `domain` on `server` (not deployed). */
export async function ownerWithRootProxy(
  t: TTestApp,
  status: TLabStatus,
  server: TLabServer,
  domain: string,
): Promise<{ client: TestClient; id: string }> {
  const { client } = await signedInClient(t);
  const saved = await client.write(
    'POST',
    '/api/proxy-configurations',
    rootProxy(status, server, domain),
  );
  expect(saved.statusCode, saved.body).toBe(200);
  return { client, id: saved.json().id as string };
}

/**
 * Saves `proxy` as `client`, deploys it to completion and waits for the check the deployment
 * queues to pass; the proxy's id.
 */
export async function deployedAndChecked(
  client: TestClient,
  proxy: Record<string, unknown>,
): Promise<string> {
  const saved = await client.write('POST', '/api/proxy-configurations', proxy);
  const id = saved.json().id as string;
  expect((await client.write('POST', `/api/deploy/${id}`)).statusCode).toBe(202);
  expect((await waitForStatus(client, id, (s) => s !== 'deploying')).status).toBe('completed');
  const { status } = certificateCalls(
    () => client,
    () => id,
  );
  await waitUntil(status, (s) => s.check?.ok === true && !s.checkPending, 'no check after deploy');
  return id;
}
