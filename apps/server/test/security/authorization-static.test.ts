import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../support/test-app';
import { routeRecorder, type TRoute, WRITE_METHODS } from './authorization-routes';

// The matrix runs without a web build (webRoot: null). These are the routes a built web app
// adds: they must all be public file reads, outside the API, and no write may reach them.

const webRoot = mkdtempSync(join(tmpdir(), 'portico-static-'));
mkdirSync(join(webRoot, 'assets'));
writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Portico</title>');
writeFileSync(join(webRoot, 'assets', 'app-abc123.js'), 'console.log(1)');
// The build's compressed variants are sent by Accept-Encoding, never as routes of their own.
writeFileSync(join(webRoot, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
writeFileSync(join(webRoot, 'assets', 'app-abc123.js.gz'), gzipSync('console.log(1)'));
writeFileSync(join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

const key = (r: TRoute) => `${r.method} ${r.url}`;

describe('routes the built web app adds', () => {
  let withWeb: TTestApp;
  let staticRoutes: TRoute[];

  beforeAll(async () => {
    const apiOnly = routeRecorder();
    const served = routeRecorder();
    const bare = await createTestApp('pglite', { onRoute: apiOnly.onRoute });
    await bare.close();
    withWeb = await createTestApp('pglite', { onRoute: served.onRoute, webRoot });
    const api = new Set(apiOnly.routes().map(key));
    staticRoutes = served.routes().filter((r) => !api.has(key(r)));
  });
  afterAll(async () => {
    await withWeb?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('are the files of the build, read-only and outside /api, /ws and the probes', () => {
    expect(staticRoutes.map(key).sort()).toEqual([
      'GET /assets/app-abc123.js',
      'GET /favicon.svg',
      'GET /index.html',
    ]);
    for (const route of staticRoutes) {
      expect(route.method).toBe('GET');
      expect(route.websocket).toBe(false);
      expect(route.url).not.toMatch(/^\/(api|ws|healthz|readyz)(\/|$)/);
    }
  });

  it('answer anyone without creating a session', async () => {
    for (const route of staticRoutes) {
      const response = await withWeb.app.inject({ method: 'GET', url: route.url });
      expect(response.statusCode, route.url).toBe(200);
      expect(response.headers['set-cookie'], route.url).toBeUndefined();
    }
  });

  it('never take a write, and the web app fallback never answers one', async () => {
    const paths = [...staticRoutes.map((r) => r.url), '/', '/admin', '/proxy-wizard'];
    for (const url of paths) {
      for (const method of WRITE_METHODS) {
        const response = await withWeb.app.inject({
          method: method as 'POST',
          url,
          headers: { accept: 'text/html', 'content-type': 'application/json' },
          payload: '{}',
        });
        expect([403, 404], `${method} ${url}`).toContain(response.statusCode);
        expect(response.headers['content-type'], `${method} ${url}`).toMatch(/application\/json/);
      }
    }
  });

  it('do not shadow the API: an unknown API path is a JSON 404 even for a browser', async () => {
    for (const url of ['/api/nope', '/api/user/proxy-configurations/x/y', '/ws/x', '/readyz/x']) {
      const response = await withWeb.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html' },
      });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/application\/json/);
    }
  });
});
