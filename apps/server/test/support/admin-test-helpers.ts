// Shared by the admin API tests: signed-in clients with chosen names and roles.
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { users } from '../../src/db/schema';
import type { TTestApp } from './test-app';
import { TEST_PASSWORD, TestClient } from './test-client';

let counter = 0;

/** A registered, signed-in client; `prefix` starts the username so tests can order names. */
export async function namedClient(t: TTestApp, prefix: string, role: 'user' | 'admin' = 'user') {
  counter += 1;
  const username = `${prefix}${process.pid}x${counter}`;
  const client = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
  const response = await client.register({
    username,
    email: `${username}@example.test`.toLowerCase(),
    password: TEST_PASSWORD,
  });
  expect(response.statusCode).toBe(201);
  const user = response.json().user as { id: string; username: string; email: string };
  if (role === 'admin') {
    // Admins are made with the CLI (docs/PRODUCT.md#accounts-and-roles); set before any request loads (caches) the user.
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  }
  return { client, user };
}

export const anonymousClient = (t: TTestApp) =>
  new TestClient(t.app, { headers: { 'accept-language': 'en' } });
