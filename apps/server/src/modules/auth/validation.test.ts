import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';

describe.each(testDatabaseKinds())('validation and registration rules on %s', (kind) => {
  let t: TTestApp;
  let closed: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    closed = await createTestApp(kind, { config: { registration: 'closed' } });
  });
  afterAll(async () => {
    await t?.close();
    await closed?.close();
  });

  it.each(['es', 'en'] as const)('answers register validation issues in %s', async (lang) => {
    const client = new TestClient(t.app, { headers: { 'accept-language': lang } });
    const response = await client.register({ username: 'ab', email: 'nope', password: 'short' });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('validation_failed');
    expect(body.message).toBe(translate(lang, 'validation.invalidRequest'));
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: 'username', message: translate(lang, 'validation.username.min') },
        { path: 'email', message: translate(lang, 'validation.email.invalid') },
        { path: 'password', message: translate(lang, 'validation.password.min') },
      ]),
    );
  });

  it('says what is wrong with a weak password and a bad username', async () => {
    const client = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    const response = await client.register({
      username: 'bad name!',
      email: 'ok@example.test',
      password: 'alllowercase1',
    });
    expect(response.json().issues).toEqual([
      { path: 'username', message: 'Username can only contain letters, numbers, and underscores' },
      {
        path: 'password',
        message:
          'Password must contain at least one uppercase letter, one lowercase letter, and one number',
      },
    ]);
  });

  it.each(['es', 'en'] as const)('answers login validation issues in %s', async (lang) => {
    const client = new TestClient(t.app, { headers: { 'accept-language': lang } });
    const response = await client.write('POST', '/api/login', { identifier: '  ', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toEqual([
      { path: 'identifier', message: translate(lang, 'validation.identifier.required') },
      { path: 'password', message: translate(lang, 'validation.loginPassword.required') },
    ]);
  });

  it('answers a body that is not an object with the generic message', async () => {
    const client = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
    const token = await client.fetchCsrfToken();
    const response = await client.request({
      method: 'POST',
      url: '/api/login',
      headers: { 'x-csrf-token': token, 'content-type': 'application/json' },
      payload: '"just a string"',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Some fields are not valid. Check them and try again.');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const client = new TestClient(t.app);
    const token = await client.fetchCsrfToken();
    const response = await client.request({
      method: 'POST',
      url: '/api/login',
      headers: { 'x-csrf-token': token, 'content-type': 'application/json' },
      payload: '{"identifier":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('bad_request');
  });

  it('refuses registration with 403 when closed, and says so in the options', async () => {
    const client = new TestClient(closed.app, { headers: { 'accept-language': 'en' } });
    const response = await client.register(newCredentials('closed'));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      statusCode: 403,
      code: 'registration_closed',
      message: translate('en', 'errors.registrationClosed'),
      text: { key: 'errors.registrationClosed' },
    });
    const options = await client.request({ method: 'GET', url: '/api/auth/options' });
    expect(options.json()).toEqual({ registration: 'closed' });
  });
});
