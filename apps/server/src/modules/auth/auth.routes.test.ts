import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';

describe.each(testDatabaseKinds())('accounts API on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('GET /api/csrf-token answers a token and starts a session', async () => {
    const client = new TestClient(t.app);
    const response = await client.request({ method: 'GET', url: '/api/csrf-token' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ token: expect.any(String) });
    expect(client.cookies.has('portico.sid')).toBe(true);
  });

  it('registers, signs the new user in and never returns the hash', async () => {
    const client = new TestClient(t.app);
    const creds = newCredentials('reg');
    const response = await client.register(creds);
    expect(response.statusCode).toBe(201);
    const { user } = response.json();
    expect(user).toMatchObject({ username: creds.username, email: creds.email, role: 'user' });
    expect(JSON.stringify(user)).not.toMatch(/argon2|passwordHash|password/i);
    const me = await client.me();
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: user.id, username: creds.username });
    expect(me.body).not.toMatch(/argon2|passwordHash/);
  });

  it('stores the e-mail lower-case', async () => {
    const creds = newCredentials('case');
    const response = await new TestClient(t.app).register({
      ...creds,
      email: creds.email.toUpperCase(),
    });
    expect(response.json().user.email).toBe(creds.email.toLowerCase());
  });

  it('ignores a role in the register body', async () => {
    const client = new TestClient(t.app);
    const response = await client.register({ ...newCredentials('role'), role: 'admin' });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.role).toBe('user');
    expect((await client.me()).json().role).toBe('user');
  });

  it('answers 409 username_taken and email_taken', async () => {
    const creds = newCredentials('dup');
    expect((await new TestClient(t.app).register(creds)).statusCode).toBe(201);
    const sameName = await new TestClient(t.app).register({
      ...newCredentials('dup'),
      username: creds.username.toUpperCase(),
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().code).toBe('username_taken');
    const sameEmail = await new TestClient(t.app, {
      headers: { 'accept-language': 'en' },
    }).register({ ...newCredentials('dup'), email: creds.email.toUpperCase() });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toEqual({
      statusCode: 409,
      code: 'email_taken',
      message: 'An account with that e-mail already exists',
      text: { key: 'errors.emailTaken' },
    });
  });

  it('logs in by username or e-mail, case-insensitively', async () => {
    const creds = newCredentials('login');
    await new TestClient(t.app).register(creds);
    for (const identifier of [
      creds.username,
      creds.email.toUpperCase(),
      creds.username.toUpperCase(),
    ]) {
      const client = new TestClient(t.app);
      const response = await client.login(identifier, creds.password);
      expect(response.statusCode).toBe(200);
      expect(response.json().user.username).toBe(creds.username);
      expect((await client.me()).statusCode).toBe(200);
    }
  });

  it('gives the same answer for an unknown user and a wrong password', async () => {
    const creds = newCredentials('enum');
    await new TestClient(t.app).register(creds);
    const wrongPassword = await new TestClient(t.app).login(creds.username, 'Wrong1234');
    const unknownUser = await new TestClient(t.app).login('nobody_here', 'Wrong1234');
    const unknownEmail = await new TestClient(t.app).login('nobody@example.test', 'Wrong1234');
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({
      statusCode: 401,
      code: 'invalid_credentials',
      message: translate('es', 'errors.invalidCredentials'),
      text: { key: 'errors.invalidCredentials' },
    });
    expect(unknownUser.statusCode).toBe(wrongPassword.statusCode);
    expect(unknownUser.body).toBe(wrongPassword.body);
    expect(unknownEmail.body).toBe(wrongPassword.body);
  });

  it('GET /api/auth/user is 401 when signed out', async () => {
    const response = await new TestClient(t.app, { headers: { 'accept-language': 'en' } }).me();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      statusCode: 401,
      code: 'unauthenticated',
      message: 'Please sign in to continue.',
      text: { key: 'errors.unauthenticated' },
    });
  });

  it('logout answers success and signs out', async () => {
    const client = new TestClient(t.app);
    await client.register(newCredentials('out'));
    const response = await client.logout();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect((await client.me()).statusCode).toBe(401);
  });

  it('GET /api/auth/options reports open registration', async () => {
    const response = await new TestClient(t.app).request({
      method: 'GET',
      url: '/api/auth/options',
    });
    expect(response.json()).toEqual({ registration: 'open' });
  });
});
