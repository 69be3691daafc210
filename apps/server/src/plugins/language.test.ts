import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import { errors } from './errors';
import { requestLanguage } from './language';

describe('request.language: the caller language, worked out at the edge', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    await app.register(requestLanguage);
    await app.register(errors);
    app.get('/language', async (request) => {
      const first = request.language;
      // Read once: a header changed later (nothing does, but a hook could) does not move it.
      request.headers['accept-language'] = first === 'en' ? 'es' : 'en';
      return { first, again: request.language };
    });
    app.post('/json', async () => ({}));
    app.get('/refused', async () => {
      throw new AppError('not_found', 404);
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('follows Accept-Language, Spanish when it names neither language, and keeps its first answer', async () => {
    const read = async (header?: string) =>
      (
        await app.inject({
          url: '/language',
          headers: header === undefined ? {} : { 'accept-language': header },
        })
      ).json();
    expect(await read('en-GB,en;q=0.9')).toEqual({ first: 'en', again: 'en' });
    expect(await read('es-AR')).toEqual({ first: 'es', again: 'es' });
    expect(await read('de-DE')).toEqual({ first: 'es', again: 'es' });
    expect(await read()).toEqual({ first: 'es', again: 'es' });
  });

  it('words errors in it, also a body refused before the handler (a parse error)', async () => {
    const refused = await app.inject({ url: '/refused', headers: { 'accept-language': 'en' } });
    expect(refused.json()).toMatchObject({ code: 'not_found', text: { key: 'errors.notFound' } });
    const englishRefused = refused.json().message;
    const spanish = await app.inject({ url: '/refused', headers: { 'accept-language': 'es' } });
    expect(spanish.json().message).not.toBe(englishRefused);

    const broken = await app.inject({
      method: 'POST',
      url: '/json',
      headers: { 'accept-language': 'en', 'content-type': 'application/json' },
      payload: '{',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: 'bad_request' });
    const brokenEs = await app.inject({
      method: 'POST',
      url: '/json',
      headers: { 'accept-language': 'es', 'content-type': 'application/json' },
      payload: '{',
    });
    expect(brokenEs.json().message).not.toBe(broken.json().message);
  });

  it('is what the errors plugin needs first', async () => {
    const bare = Fastify();
    await expect(bare.register(errors).ready()).rejects.toThrow(/portico-language/);
    await bare.close();
  });
});
