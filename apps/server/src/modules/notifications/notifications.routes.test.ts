import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpSink, type THttpSink } from '../../../test/support/http-sink';
import { mailingTestApp, verifyAlertEmail } from '../../../test/support/notifications-test-helpers';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import { startSmtpSink, type TSmtpSink } from '../../../test/support/smtp-sink';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, notificationSettings, users } from '../../db/schema';

const URL_PATH = '/services/T000/B000/SECRETSECRETsecret';

describe.each(testDatabaseKinds())('notification settings on %s', (kind) => {
  let t: TTestApp;
  let strict: TTestApp;
  let webhook: THttpSink;
  let smtp: TSmtpSink;
  beforeAll(async () => {
    webhook = await startHttpSink();
    smtp = await startSmtpSink();
    // This Portico allows private addresses (the sinks are on loopback) and sends e-mail.
    t = await mailingTestApp(kind, smtp, { webhookAllowPrivate: true });
    // This one keeps the default: public addresses only, no e-mail.
    strict = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
    await strict?.close();
    await webhook?.close();
    await smtp?.close();
  });

  it('starts with e-mail on and no webhook, and says whether e-mail is configured', async () => {
    const { client } = await signedInClient(strict);
    const response = await client.request({ method: 'GET', url: '/api/account/notifications' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      email: expect.stringMatching(/@example\.test$/),
      smtpConfigured: false,
      emailEnabled: true,
      emailVerified: false,
      emailCode: null,
      webhook: null,
    });
  });

  it('refuses a URL that is not http(s), with the reason in the caller language, storing nothing', async () => {
    const { client, user } = await signedInClient(strict);
    for (const [lang, words] of [
      ['en', 'Enter an http:// or https:// URL'],
      ['es', 'Escribe una URL http:// o https://'],
    ] as const) {
      const response = await client.write(
        'PUT',
        '/api/account/notifications',
        { emailEnabled: true, webhookUrl: 'file:///etc/passwd' },
        { 'accept-language': lang },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().issues[0].message).toContain(words);
    }
    const rows = await strict.database.db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, user.id));
    expect(rows).toEqual([]);
  });

  it('refuses loopback and private addresses by default, naming them (SSRF)', async () => {
    const { client, user } = await signedInClient(strict);
    const cases = [
      [
        webhook.url(URL_PATH),
        'en',
        'Portico does not call 127.0.0.1: it is a private or loopback address',
      ],
      ['http://127.0.0.1:9/x', 'es', 'Portico no llama a 127.0.0.1: es una dirección privada'],
      [`http://localhost:${webhook.port}/x`, 'es', 'Portico no llama a localhost'],
      ['http://10.0.0.8/hook', 'en', 'call 10.0.0.8: it is a private or loopback address'],
      [
        'http://169.254.169.254/latest',
        'en',
        'Portico does not call 169.254.169.254: it is a link-local',
      ],
    ] as const;
    for (const [url, lang, words] of cases) {
      const response = await client.write(
        'PUT',
        '/api/account/notifications',
        { emailEnabled: true, webhookUrl: url },
        { 'accept-language': lang },
      );
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message).toContain(words);
    }
    expect(webhook.requests).toHaveLength(0);
    const stored = await strict.database.db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, user.id));
    expect(stored).toEqual([]);
  });

  it('refuses the metadata address even where private addresses are allowed', async () => {
    const { client } = await signedInClient(t);
    const response = await client.write('PUT', '/api/account/notifications', {
      emailEnabled: true,
      webhookUrl: 'http://169.254.169.254/latest/meta-data',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('webhook_forbidden');
  });

  it('stores the webhook encrypted, shows only its origin and a hint, and audits the change', async () => {
    const { client, user } = await signedInClient(t);
    const url = webhook.url(URL_PATH);
    const response = await client.write('PUT', '/api/account/notifications', {
      emailEnabled: true,
      webhookUrl: url,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().webhook).toEqual({
      origin: `http://127.0.0.1:${webhook.port}`,
      hint: '…cret',
    });
    expect(response.body).not.toContain('SECRETSECRET');
    const again = await client.request({ method: 'GET', url: '/api/account/notifications' });
    expect(again.body).not.toContain('SECRETSECRET');
    const [row] = await t.database.db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, user.id));
    expect(row!.webhookUrlEnc).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain('SECRETSECRET');
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, user.id), eq(auditLog.action, 'account.notifications')));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.changes).toEqual([{ field: 'webhookUrl', before: null, after: '[changed]' }]);
    expect(JSON.stringify(audit)).not.toContain('SECRETSECRET');
  });

  it('sends a test to the webhook and by e-mail, in the caller language, and says what happened', async () => {
    const { client, user } = await signedInClient(t);
    await verifyAlertEmail(client, smtp);
    await client.write('PUT', '/api/account/notifications', {
      emailEnabled: true,
      webhookUrl: webhook.url('/test-es'),
    });
    const before = { hooks: webhook.requests.length, mails: smtp.messages.length };
    const response = await client.write('POST', '/api/account/notifications/test', undefined, {
      'accept-language': 'es',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      email: { delivered: true, error: null },
      webhook: { delivered: true, error: null },
    });
    const hooks = webhook.requests.slice(before.hooks);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.path).toBe('/test-es');
    expect(hooks[0]!.json).toMatchObject({
      text: expect.stringMatching(/^Mensaje de prueba de Portico/),
      content: expect.stringMatching(/^Mensaje de prueba de Portico/),
      event: 'test',
    });
    const mails = await smtp.waitFor(before.mails + 1);
    const mail = mails[before.mails]!;
    const [me] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(mail.to).toEqual([me!.email]);
    expect(mail.data).toMatch(/^Subject: .*$/m);
  });

  it('removes the webhook and turns e-mail off: the test then reaches nothing', async () => {
    const { client } = await signedInClient(t);
    await client.write('PUT', '/api/account/notifications', {
      emailEnabled: true,
      webhookUrl: webhook.url('/to-remove'),
    });
    const off = await client.write('PUT', '/api/account/notifications', {
      emailEnabled: false,
      webhookUrl: null,
    });
    expect(off.json()).toMatchObject({ emailEnabled: false, webhook: null, smtpConfigured: true });
    const before = { hooks: webhook.requests.length, mails: smtp.messages.length };
    const response = await client.write('POST', '/api/account/notifications/test');
    expect(response.json()).toEqual({ email: null, webhook: null });
    expect(webhook.requests.length).toBe(before.hooks);
    expect(smtp.messages.length).toBe(before.mails);
  });

  it('keeps a stored webhook when the URL is left out', async () => {
    const { client } = await signedInClient(t);
    await client.write('PUT', '/api/account/notifications', {
      emailEnabled: true,
      webhookUrl: webhook.url('/kept'),
    });
    const response = await client.write('PUT', '/api/account/notifications', {
      emailEnabled: false,
    });
    expect(response.json().webhook).toEqual({
      origin: `http://127.0.0.1:${webhook.port}`,
      hint: '/kept',
    });
  });

  it('records the language the screen is in, which alerts are written in', async () => {
    const { client, user } = await signedInClient(t);
    const response = await client.write('PUT', '/api/account/language', { language: 'en' });
    expect(response.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.language).toBe('en');
    const bad = await client.write('PUT', '/api/account/language', { language: 'fr' });
    expect(bad.statusCode).toBe(400);
  });
});
