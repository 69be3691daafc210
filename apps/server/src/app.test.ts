import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTestTempDir, testTempDir } from '../test/support/temp-dir';
import { buildTestApp, TEST_SESSION_SECRET } from '../test/support/test-app';
import { createTestDatabase, type TTestDatabase } from '../test/support/test-database';

const config = { registration: 'open', trustProxy: false, logLevel: 'silent' } as const;

function fakeWebBuild(): string {
  const root = testTempDir('portico-web-');
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Portico</title><div id="root">');
  writeFileSync(join(root, 'assets', 'app-abc123.js'), 'console.log(1)');
  return root;
}

describe('app shell', () => {
  let testDb: TTestDatabase;
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let webRoot: string;
  beforeAll(async () => {
    testDb = await createTestDatabase('pglite');
    webRoot = fakeWebBuild();
    app = await buildTestApp({
      config,
      database: testDb.database,
      sessionSecret: TEST_SESSION_SECRET,
      logger: false,
      webRoot,
      sessionSweepIntervalMs: 0,
    });
    app.get('/api/test-boom', async () => {
      throw new Error('database password is hunter2');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
    removeTestTempDir(webRoot);
  });

  const html = { accept: 'text/html,application/xhtml+xml' };

  it('GET /healthz answers ok', async () => {
    const response = await app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers ready on a migrated database', async () => {
    const response = await app.inject({ url: '/readyz' });
    expect(response.json()).toEqual({ status: 'ready' });
    expect(response.statusCode).toBe(200);
  });

  it('serves index.html for any page path that accepts HTML, with the CSP', async () => {
    for (const url of ['/', '/home', '/proxy-details/123', '/no/such/page']) {
      const response = await app.inject({ url, headers: html });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
      const csp = String(response.headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "frame-ancestors 'none'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
  });

  it('serves the home page to any client, such as curl or an uptime check', async () => {
    for (const url of ['/', '/?lang=en']) {
      const response = await app.inject({ url, headers: { accept: '*/*' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
    }
  });

  it('serves hashed assets as immutable', async () => {
    const response = await app.inject({ url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('answers JSON 404 for unknown /api paths and for non-HTML requests', async () => {
    for (const [url, headers] of [
      ['/api/nope', html],
      ['/api', html],
      ['/healthz/x', html],
      ['/some/page', { accept: 'application/json' }],
    ] as const) {
      const response = await app.inject({ url, headers: { ...headers, 'accept-language': 'en' } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        statusCode: 404,
        code: 'not_found',
        message: 'The requested resource was not found.',
        text: { key: 'errors.notFound' },
      });
    }
  });

  it('marks API answers no-store', async () => {
    const response = await app.inject({ url: '/api/csrf-token' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('hides 5xx details from the caller', async () => {
    const response = await app.inject({
      url: '/api/test-boom',
      headers: { 'accept-language': 'en' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      statusCode: 500,
      code: 'internal',
      message: 'Server error. Please try again later.',
      text: { key: 'errors.serverError' },
    });
    expect(response.body).not.toContain('hunter2');
  });

  it('publishes the OpenAPI document with the account routes', async () => {
    const response = await app.inject({ url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/csrf-token',
      '/api/register',
      '/api/login',
      '/api/logout',
      '/api/auth/user',
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
    expect(
      doc.paths['/api/login'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('identifier');
    expect(JSON.stringify(doc.paths)).not.toContain('/api/docs');
  });

  it('serves the API docs UI at /api/docs', async () => {
    const response = await app.inject({ url: '/api/docs/', headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/swagger/i);
    expect(String(response.headers['content-security-policy'])).not.toContain('upgrade-insecure');
  });
});

describe('readiness', () => {
  it('answers 503 while migrations are not applied, and when the database is gone', async () => {
    const { database } = await createTestDatabase('pglite');
    // As if this build shipped a migration the database has not run yet.
    await database.db.execute(sql`delete from drizzle.__drizzle_migrations`);
    const app = await buildTestApp({
      config,
      database,
      sessionSecret: TEST_SESSION_SECRET,
      logger: false,
      webRoot: null,
      sessionSweepIntervalMs: 0,
    });
    const pending = await app.inject({ url: '/readyz' });
    expect(pending.statusCode).toBe(503);
    expect(pending.json()).toEqual({ status: 'migrations_pending' });
    await database.close();
    const gone = await app.inject({ url: '/readyz' });
    expect(gone.statusCode).toBe(503);
    expect(gone.json()).toEqual({ status: 'database_unreachable' });
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    await app.close();
  });
});
