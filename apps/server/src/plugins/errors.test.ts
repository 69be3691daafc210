import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, KeyedAppError, RetryLaterError } from '../lib/app-error';
import { errors } from './errors';
import { requestLanguage } from './language';

/**
 * The bodies of the one keyed error type, byte for byte: the checks, scripts and proxies threw
 * it under other names once, and clients parse these answers.
 */
describe('error bodies of AppError and KeyedAppError', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    await app.register(requestLanguage);
    await app.register(errors);
    app.get('/keyed', async () => {
      throw new KeyedAppError('script_rejected', 400, 'checks.script.tooLarge');
    });
    app.get('/keyed-params', async () => {
      throw new KeyedAppError('server_unreachable', 502, 'errors.serverUnreachable', {
        reason: 'timed out',
      });
    });
    app.get('/plain', async () => {
      throw new AppError('not_found', 404);
    });
    app.get('/later', async () => {
      throw new RetryLaterError(
        'rate_limited',
        'errors.rateLimited',
        new Date(Date.now() + 30_000),
      );
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string) => app.inject({ url, headers: { 'accept-language': 'en' } });

  it('answer the same bytes as before the two names became one', async () => {
    const keyed = await get('/keyed');
    expect(keyed.statusCode).toBe(400);
    expect(keyed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(keyed.body).toBe(
      '{"statusCode":400,"code":"script_rejected","message":"The script is larger than 64 KiB.","text":{"key":"checks.script.tooLarge"}}',
    );
    const withParams = await get('/keyed-params');
    expect(withParams.statusCode).toBe(502);
    expect(withParams.body).toBe(
      `{"statusCode":502,"code":"server_unreachable","message":${JSON.stringify(withParams.json().message)},"text":{"key":"errors.serverUnreachable","params":{"reason":"timed out"}}}`,
    );
    expect(withParams.json().message).toContain('timed out');
    const plain = await get('/plain');
    expect(plain.body).toBe(
      `{"statusCode":404,"code":"not_found","message":${JSON.stringify(plain.json().message)},"text":{"key":"errors.notFound"}}`,
    );
    const later = await get('/later');
    expect(later.statusCode).toBe(429);
    expect(Number(later.headers['retry-after'])).toBeGreaterThanOrEqual(29);
    expect(later.json()).toMatchObject({
      code: 'rate_limited',
      text: { key: 'errors.rateLimited' },
    });
  });
});
