import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/support/test-app';
import { LOG_REDACTION, loggedUrl, OneLinePerRequest, requestLoggerFactory } from './request-log';

const TOKEN = `ptk_${'Ab3-_x'.repeat(7)}Q`;

/** Every line written to a pino stream, parsed. */
function captured() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  return { lines, stream };
}

/** A bare Fastify logging as the app does, to `stream`. */
function loggingApp(stream: Writable) {
  const controller = new OneLinePerRequest();
  const app = Fastify({
    loggerInstance: pino({ level: 'info', redact: LOG_REDACTION }, stream),
    logController: controller,
    childLoggerFactory: requestLoggerFactory,
  });
  controller.useLogger(app.log);
  return app;
}

describe('one log line per request', () => {
  const { lines, stream: capture } = captured();
  const app = loggingApp(capture);
  app.get('/fine', async () => ({ ok: true }));
  app.get('/boom', async () => {
    throw Object.assign(new Error('refused'), { password: 'hunter2', statusCode: 500 });
  });
  app.get('/own', async (request) => {
    request.log.warn({ account: { password: 'hunter3' } }, 'own line');
    request.log.child({ step: 'two' }).info('a child of it');
    return { ok: true };
  });
  beforeAll(() => app.ready());
  afterAll(() => app.close());

  const linesOf = (url: string) => lines.filter((line) => line.url === url);

  it('a request that succeeded: one line with its id, method, path, status, time and address', async () => {
    const response = await app.inject({
      url: '/fine',
      headers: {
        cookie: 'sid=secret',
        authorization: 'Bearer secret-token',
        'x-csrf-token': 'secret-csrf',
      },
    });
    const [line, ...more] = linesOf('/fine');
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request',
      reqId: response.headers['request-id'] ?? expect.any(String),
      method: 'GET',
      statusCode: 200,
      ip: '127.0.0.1',
    });
    expect(typeof line?.ms).toBe('number');
    expect(JSON.stringify(line)).not.toContain('secret');
  });

  it('a request that failed: its error is logged with the redaction applied, and its line too', async () => {
    await app.inject({ url: '/boom' });
    const [line, ...more] = linesOf('/boom');
    expect(more).toEqual([]);
    expect(line).toMatchObject({ msg: 'request', statusCode: 500 });
    const ofRequest = lines.filter((l) => l.reqId === line?.reqId);
    const errorLine = ofRequest.find((l) => l.level === 50);
    expect(errorLine).toMatchObject({ err: { message: 'refused', password: '[redacted]' } });
    expect(JSON.stringify(ofRequest)).not.toContain('hunter2');
  });

  it("a handler's own lines carry the request's id, through the redaction", async () => {
    await app.inject({ url: '/own' });
    const [line] = linesOf('/own');
    const ofRequest = lines.filter((l) => l.reqId === line?.reqId);
    expect(ofRequest.map((l) => l.msg)).toEqual(['own line', 'a child of it', 'request']);
    expect(ofRequest[0]).toMatchObject({ level: 40, account: { password: '[redacted]' } });
    expect(ofRequest[1]).toMatchObject({ level: 30, step: 'two' });
    expect(JSON.stringify(ofRequest)).not.toContain('hunter3');
  });
});

describe('a credential in a URL is not logged', () => {
  it('replaces token-shaped values anywhere and the values of credential-named parameters', () => {
    expect(loggedUrl(`/api/x?token=${TOKEN}&limit=5`)).toBe('/api/x?token=[redacted]&limit=5');
    expect(loggedUrl('/api/x?access_token=abc&api_key=k3y&apikey=k&Authorization=b&q=1')).toBe(
      '/api/x?access_token=[redacted]&api_key=[redacted]&apikey=[redacted]&Authorization=[redacted]&q=1',
    );
    expect(loggedUrl(`/api/${TOKEN}/x?next=${TOKEN}&${TOKEN}`)).toBe(
      '/api/[redacted]/x?next=[redacted]&[redacted]',
    );
    // Encoded: the name decoded before it is judged, a token's `_` as %5F.
    expect(loggedUrl(`/x?%74oken=abc&v=${TOKEN.replace('_', '%5F')}`)).toBe(
      '/x?%74oken=[redacted]&v=[redacted]',
    );
    expect(loggedUrl('/api/user/proxy-configurations?limit=50&before=2031')).toBe(
      '/api/user/proxy-configurations?limit=50&before=2031',
    );
    expect(loggedUrl('/api/proxy-configurations/1234')).toBe('/api/proxy-configurations/1234');
  });

  it("the real app's log: a token in the query or the path is in no line", async () => {
    const { lines, stream } = captured();
    const t = await createTestApp('pglite', {
      logger: { level: 'info', stream, redact: LOG_REDACTION },
    });
    try {
      const urls = [
        `/api/user/proxy-configurations?token=${TOKEN}`,
        `/api/user/proxy-configurations?access_token=s3cret-one&api_key=s3cret-two`,
        `/api/no-such-route/${TOKEN}`,
      ];
      for (const url of urls) {
        const response = await t.app.inject({ url });
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
      }
      const logged = lines.filter((line) => line.msg === 'request').map((line) => line.url);
      expect(logged).toEqual([
        '/api/user/proxy-configurations?token=[redacted]',
        '/api/user/proxy-configurations?access_token=[redacted]&api_key=[redacted]',
        '/api/no-such-route/[redacted]',
      ]);
      const all = JSON.stringify(lines);
      for (const secret of [TOKEN, TOKEN.slice(4), 's3cret-one', 's3cret-two']) {
        expect(all).not.toContain(secret);
      }
    } finally {
      await t.close();
    }
  });

  it("Fastify's own not-found line names the URL redacted", async () => {
    const { lines, stream } = captured();
    const app = loggingApp(stream);
    await app.inject({ url: `/nowhere?token=${TOKEN}` });
    await app.close();
    expect(lines.map((line) => line.msg)).toContain('route not found');
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });
});
