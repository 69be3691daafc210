// "Send a test" with a webhook Portico may aim at private addresses: the far side is a real
// listener on loopback (an HTTP server answering errors with secrets in them, a closed port, a
// socket that hangs up, one that answers no HTTP, one that never answers, TLS to a plain port).
// Nothing it wrote comes back, and every way of not reaching it reads and takes the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpSink, type THttpSink } from '../../../test/support/http-sink';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { closedPort, startTcpFarSide, type TTcpFarSide } from '../../../test/support/tcp-far-side';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';

const DEADLINE_MS = 1500;

describe.each(testDatabaseKinds())('a test send on %s', (kind) => {
  let t: TTestApp;
  let sink: THttpSink;
  const farSides: TTcpFarSide[] = [];
  beforeAll(async () => {
    sink = await startHttpSink((path) => {
      const secrets = { 'x-internal': 'HEADER-SECRET', 'set-cookie': 'admin=COOKIE-SECRET' };
      if (path === '/500')
        return { status: 500, headers: secrets, body: 'BODY-SECRET db=10.0.0.9' };
      if (path === '/404') return { status: 404, headers: secrets, body: '<h1>BODY-SECRET</h1>' };
      if (path === '/moved') {
        return { status: 302, headers: { location: 'http://10.0.0.9/LOCATION-SECRET' } };
      }
      if (path === '/silent') return 'hang';
      return { status: 204 };
    });
    for (const behaviour of ['hang-up', 'garbage', 'silent'] as const) {
      farSides.push(await startTcpFarSide(behaviour));
    }
    t = await createTestApp(kind, {
      config: { webhookAllowPrivate: true },
      webhookDeadlineMs: DEADLINE_MS,
    });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
    for (const farSide of farSides) await farSide.close();
  });

  /** A new account whose webhook is `url`, and its test send: the answer and how long it took. */
  async function testSendTo(url: string, lang: 'en' | 'es' = 'en') {
    const { client } = await signedInClient(t);
    const saved = await client.write('PUT', '/api/account/notifications', {
      emailEnabled: true,
      webhookUrl: url,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const started = performance.now();
    const response = await client.write('POST', '/api/account/notifications/test', undefined, {
      'accept-language': lang,
    });
    return { response, ms: performance.now() - started };
  }

  it('an error answer is told by its status class alone: no body, no header, no redirect target', async () => {
    const cases = [
      ['/500', 'en', 'The webhook answered with a 5xx status instead of 2xx.'],
      ['/404', 'es', 'El webhook respondió con un estado 4xx en lugar de 2xx.'],
      [
        '/moved',
        'en',
        'The webhook answered with a redirect (3xx); Portico does not follow redirects. Use the final URL.',
      ],
    ] as const;
    for (const [path, lang, words] of cases) {
      const { response } = await testSendTo(sink.url(path), lang);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        email: null,
        webhook: { delivered: false, error: words },
      });
      expect(response.body).not.toMatch(/SECRET|10\.0\.0\.9/);
    }
  });

  it('refused, hung up, not HTTP, TLS to a plain port and no answer: one answer, at the deadline', async () => {
    const [hangUp, garbage, silent] = farSides;
    const urls = [
      `http://127.0.0.1:${await closedPort()}/hook`,
      `http://127.0.0.1:${hangUp!.port}/hook`,
      `http://127.0.0.1:${garbage!.port}/hook`,
      `http://127.0.0.1:${silent!.port}/hook`,
      sink.url('/silent'),
      `https://127.0.0.1:${sink.port}/tls`,
    ];
    const answers = await Promise.all(urls.map((url) => testSendTo(url)));
    for (const { response } of answers) expect(response.statusCode).toBe(200);
    expect(new Set(answers.map((a) => a.response.body))).toEqual(
      new Set([JSON.stringify(answers[0]!.response.json())]),
    );
    expect(answers[0]!.response.json()).toEqual({
      email: null,
      webhook: { delivered: false, error: 'Could not connect to the webhook.' },
    });
    // A closed port is not answered sooner than a silent one: the wait tells them apart no more.
    // (setTimeout may fire a little early, never a whole 40 ms.)
    for (const { ms } of answers) expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 40);
    const spanish = await testSendTo(`http://127.0.0.1:${garbage!.port}/hook`, 'es');
    expect(spanish.response.json().webhook.error).toBe('No se pudo conectar con el webhook.');
  });

  it('the sixth test in ten minutes is refused, saying when to try again, and sends nothing', async () => {
    const { client } = await signedInClient(t);
    await client.write('PUT', '/api/account/notifications', {
      emailEnabled: true,
      webhookUrl: sink.url('/limited'),
    });
    const send = (lang: 'en' | 'es') =>
      client.write('POST', '/api/account/notifications/test', undefined, {
        'accept-language': lang,
      });
    for (let i = 0; i < 5; i++) expect((await send('en')).statusCode).toBe(200);
    const refused = await send('en');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'test_send_limited',
      message: 'Too many test messages: you can send another in 10 min.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    const spanish = await send('es');
    expect(spanish.json().message).toBe(
      'Demasiados mensajes de prueba: podrás enviar otro dentro de 10 min.',
    );
    expect(sink.requests.filter((r) => r.path === '/limited')).toHaveLength(5);
    // Counted per account: another one still sends.
    const other = await testSendTo(sink.url('/limited'));
    expect(other.response.statusCode).toBe(200);
  });
});
