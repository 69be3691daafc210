import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../test/support/test-app';
import type { TestClient } from '../../test/support/test-client';
import { testDatabaseKinds } from '../../test/support/test-database';
import { proxyConfigurations } from '../db/schema';
import { acceptedEncoding, COMPRESS_FROM } from './compress';

describe('acceptedEncoding', () => {
  it('prefers br, follows q-values, and refuses q=0', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('gzip')).toBe('gzip');
    expect(acceptedEncoding('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('identity')).toBeUndefined();
    expect(acceptedEncoding(undefined)).toBeUndefined();
  });
});

describe.each(testDatabaseKinds())('compressed JSON answers on %s', (kind) => {
  let t: TTestApp;
  let client: TestClient;
  const url = '/api/user/proxy-configurations';

  beforeAll(async () => {
    t = await createTestApp(kind);
    const owner = await signedInClient(t);
    client = owner.client;
    await t.database.db.insert(proxyConfigurations).values(
      Array.from({ length: 20 }, (_, i) => ({
        userId: owner.user.id,
        domain: `zip${process.pid}${kind}${i}.example.com`,
        serverIp: '203.0.113.30',
        email: 'o@example.com',
      })),
    );
  });
  afterAll(async () => t?.close());

  const get = (path: string, encoding?: string) =>
    client.request({
      method: 'GET',
      url: path,
      headers: encoding ? { 'accept-encoding': encoding } : {},
    });

  it('sends a list over 1 kB in br or gzip as asked, the same JSON once decoded', async () => {
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_FROM);
    const br = await get(url, 'gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await get(url, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('compresses a kept answer too, again on each send', async () => {
    // The first read keeps the answer; the ones after are the kept bytes (plugins/answer-cache).
    const first = await get(url, 'br');
    for (const encoding of ['br', 'gzip', 'br'] as const) {
      const again = await get(url, encoding);
      expect(again.headers['content-encoding']).toBe(encoding);
      const text = (encoding === 'br' ? brotliDecompressSync : gunzipSync)(again.rawPayload);
      expect(text.toString()).toBe(brotliDecompressSync(first.rawPayload).toString());
    }
  });

  it('leaves answers under 1 kB plain', async () => {
    const small = await get('/api/user/proxy-configurations?limit=1&q=nothing-matches', 'br');
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(COMPRESS_FROM);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().total).toBe(0);
  });
});
