import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_REDACTION, OneLinePerRequest, requestLoggerFactory } from './request-log';

describe('one log line per request', () => {
  const lines: Record<string, unknown>[] = [];
  const capture = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  const controller = new OneLinePerRequest();
  const app = Fastify({
    loggerInstance: pino({ level: 'info', redact: LOG_REDACTION }, capture),
    logController: controller,
    childLoggerFactory: requestLoggerFactory,
  });
  controller.useLogger(app.log);
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
