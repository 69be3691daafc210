// Alerts and tests go by e-mail only to an address its owner proved to read (mail bombing,
// issue 35): a code mailed there (a real SMTP sink on loopback) and entered in the settings.
import { join } from 'node:path';
import { LIMIT_DEFAULTS } from '@portico/shared/admin/limits';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { mailingTestApp, verifyAlertEmail } from '../../../test/support/notifications-test-helpers';
import { signedInClient } from '../../../test/support/proxies-test-helpers';
import {
  codeInMail,
  readMail,
  startSmtpSink,
  type TSmtpSink,
} from '../../../test/support/smtp-sink';
import { removeTestTempDir, testTempDir } from '../../../test/support/temp-dir';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { testDatabaseKinds } from '../../../test/support/test-database';
import { auditLog, notificationSettings } from '../../db/schema';
import { transactionOver } from '../../db/transaction';
import { secretBoxLoader } from '../../lib/secrets';
import { createAuditRepository } from '../audit/audit.repository';
import { createAuditService } from '../audit/audit.service';
import { createLimitsRepository } from '../limits/limits.repository';
import { createLimitGuard } from '../limits/limits.service';
import { createProxyOwnerReads } from '../proxies/proxy-owners.repository';
import { createServerReads } from '../ssh-servers/server-reads.repository';
import { createTokensRepository } from '../tokens/tokens.repository';
import { createUserReads } from '../users/user-reads.repository';
import { createUsersRepository } from '../users/users.repository';
import { createUsersService } from '../users/users.service';
import { createAlerts } from './alerts';
import { createMailer } from './mailer';
import { createNotificationsRepository } from './notifications.repository';
import { createNotificationsService } from './notifications.service';

const CODE_URL = '/api/account/notifications/email/code';
const VERIFY_URL = '/api/account/notifications/email/verify';

describe.each(testDatabaseKinds())('verifying the alert e-mail address on %s', (kind) => {
  let t: TTestApp;
  let strict: TTestApp;
  let smtp: TSmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await mailingTestApp(kind, smtp);
    strict = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
    await strict?.close();
    await smtp?.close();
  });

  const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));

  /**
   * The alerts as the certificate watch sends them, built from the same parts over this app's
   * database (call it inside a test: its key folder goes when the test ends).
   */
  function realAlerts() {
    const db = t.database.db;
    const keyDir = testTempDir('portico-keys-');
    onTestFinished(() => removeTestTempDir(keyDir));
    const users = createUsersService(createUsersRepository(db));
    const notifications = createNotificationsService({
      repository: createNotificationsRepository(db),
      transaction: transactionOver(db, (tx) => ({
        repository: createNotificationsRepository(tx),
        audit: createAuditService(createAuditRepository(tx)),
        limits: createLimitGuard(
          createLimitsRepository(tx, {
            proxies: createProxyOwnerReads,
            servers: createServerReads,
            tokens: createTokensRepository,
            notifications: createNotificationsRepository,
            users: createUserReads,
          }),
          LIMIT_DEFAULTS,
        ),
      })),
      users,
      secretBox: secretBoxLoader(join(keyDir, 'secret.key')),
      webhookAllowPrivate: false,
      mailer: createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: 'p@example.test' }),
      log: { warn: () => {} },
    });
    return createAlerts({
      notifications,
      findUser: (id) => users.findById(id),
      listAdmins: async () => [],
      now: () => new Date(),
    });
  }

  async function settingsOf(client: TestClient) {
    return (await client.request({ method: 'GET', url: '/api/account/notifications' })).json();
  }

  async function codeFor(client: TestClient, lang: 'en' | 'es' = 'en') {
    const address = (await settingsOf(client)).email as string;
    const before = mailsTo(address).length;
    const sent = await client.write('POST', CODE_URL, undefined, { 'accept-language': lang });
    expect(sent.statusCode, sent.body).toBe(200);
    await smtp.waitFor(smtp.messages.length);
    const mails = mailsTo(address);
    expect(mails).toHaveLength(before + 1);
    return { address, mail: mails.at(-1)!, code: codeInMail(mails.at(-1)!), settings: sent.json() };
  }

  it('an unverified address gets no test and no alert; once verified it gets both', async () => {
    const { client, user } = await signedInClient(t);
    const settings = await settingsOf(client);
    expect(settings).toMatchObject({ emailEnabled: true, emailVerified: false, emailCode: null });
    const alerts = realAlerts();
    const proxy = { id: crypto.randomUUID(), domain: 'shop.example.com', userId: user.id };
    const alert = {
      kind: 'warning',
      notAfter: new Date(Date.now() + 9 * 86_400_000).toISOString(),
    } as const;

    const test = await client.write('POST', '/api/account/notifications/test');
    expect(test.json()).toEqual({ email: null, webhook: null });
    await alerts.send(proxy, alert);
    expect(mailsTo(settings.email)).toEqual([]);

    await verifyAlertEmail(client, smtp);
    expect(mailsTo(settings.email)).toHaveLength(1);
    await alerts.send(proxy, alert);
    const verifiedTest = await client.write('POST', '/api/account/notifications/test');
    expect(verifiedTest.json()).toEqual({ email: { delivered: true, error: null }, webhook: null });
    await smtp.waitFor(smtp.messages.length);
    const subjects = mailsTo(settings.email).map((m) => readMail(m).subject);
    expect(subjects).toHaveLength(3);
    expect(subjects[1]).toContain('shop.example.com');
    expect(subjects[2]).toBe('Test message from Portico');
  });

  it('mails a code in the caller language, keeps only its hash, and the right code verifies', async () => {
    const { client, user } = await signedInClient(t);
    const { address, mail, code, settings } = await codeFor(client, 'es');
    expect(readMail(mail).subject).toBe(`Tu código de Portico: ${code}`);
    expect(readMail(mail).text).toContain('Es válido durante 30 minutos');
    expect(settings).toMatchObject({
      emailVerified: false,
      emailCode: { sentTo: address, expiresAt: expect.any(String) },
    });
    const minutes = (Date.parse(settings.emailCode.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    const [row] = await t.database.db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, user.id));
    expect(row!.emailCodeHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(row)).not.toContain(code);

    const verified = await client.write('POST', VERIFY_URL, { code: ` ${code} ` });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ emailVerified: true, emailCode: null });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, user.id), eq(auditLog.action, 'account.notifications')));
    expect(audit.map((a) => a.changes)).toEqual([
      [{ field: 'alertEmailVerified', before: null, after: address }],
    ]);
    // Verified once: neither the code again nor a new one.
    expect((await client.write('POST', VERIFY_URL, { code })).json().code).toBe(
      'email_code_expired',
    );
    expect((await client.write('POST', CODE_URL)).json().code).toBe('email_already_verified');
  });

  it('counts wrong codes: five void the code, even the right one after them', async () => {
    const { client, user } = await signedInClient(t);
    const { code } = await codeFor(client);
    const wrong = code === '000000' ? '111111' : '000000';
    const left: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await client.write('POST', VERIFY_URL, { code: wrong });
      expect(answer.statusCode).toBe(400);
      left.push(answer.json().message);
    }
    expect(left[0]).toBe('That code is not right. Tries left: 4.');
    expect(left[4]).toBe('That code is not right. Tries left: 0.');
    const [row] = await t.database.db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, user.id));
    expect(row!.emailCodeTries).toBe(5);
    const late = await client.write('POST', VERIFY_URL, { code });
    expect(late.json()).toMatchObject({
      code: 'email_code_expired',
      message: 'This code has expired or was tried too many times: ask for a new one.',
    });
    expect((await settingsOf(client)).emailVerified).toBe(false);
  });

  it('refuses an expired code, in the caller language', async () => {
    const { client, user } = await signedInClient(t);
    const { code } = await codeFor(client);
    await t.database.db
      .update(notificationSettings)
      .set({ emailCodeExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(notificationSettings.userId, user.id));
    expect((await settingsOf(client)).emailCode).toBeNull();
    const answer = await client.write('POST', VERIFY_URL, { code }, { 'accept-language': 'es' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(
      'Este código ha caducado o se ha probado demasiadas veces: pide uno nuevo.',
    );
    expect((await settingsOf(client)).emailVerified).toBe(false);
  });

  it('a new sign-in address is unverified again, and a code sent to the old one does not verify it', async () => {
    const { client } = await signedInClient(t);
    await verifyAlertEmail(client, smtp);
    const changeAddress = async () => {
      const email = `moved-${(await settingsOf(client)).email}`;
      const moved = await client.write('PUT', '/api/account/email', {
        email,
        currentPassword: 'Secret123',
      });
      expect(moved.statusCode, moved.body).toBe(200);
      return email;
    };
    const newAddress = await changeAddress();
    expect(await settingsOf(client)).toMatchObject({ email: newAddress, emailVerified: false });
    expect((await client.write('POST', '/api/account/notifications/test')).json().email).toBeNull();
    expect(mailsTo(newAddress)).toEqual([]);

    const { code } = await codeFor(client);
    await changeAddress();
    expect((await settingsOf(client)).emailCode).toBeNull();
    const answer = await client.write('POST', VERIFY_URL, { code });
    expect(answer.json().code).toBe('email_code_expired');
    expect((await settingsOf(client)).emailVerified).toBe(false);
  });

  it('sends three codes in ten minutes, then says when another may be asked for', async () => {
    const { client } = await signedInClient(t);
    const first = await codeFor(client);
    await codeFor(client);
    const third = await codeFor(client);
    const refused = await client.write('POST', CODE_URL, undefined, { 'accept-language': 'es' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'email_code_limited',
      message: 'Se han enviado demasiados códigos: podrás pedir otro dentro de 10 min.',
    });
    expect(mailsTo(first.address)).toHaveLength(3);
    // Only the last code sent counts.
    if (first.code !== third.code) {
      expect((await client.write('POST', VERIFY_URL, { code: first.code })).statusCode).toBe(400);
    }
    expect((await client.write('POST', VERIFY_URL, { code: third.code })).statusCode).toBe(200);
  });

  it('refuses a code that is not six digits, and any code where e-mail is not set up', async () => {
    const { client } = await signedInClient(t);
    const bad = await client.write(
      'POST',
      VERIFY_URL,
      { code: '12ab' },
      { 'accept-language': 'es' },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].message).toBe('Escribe el código de 6 cifras del correo.');
    const { client: elsewhere } = await signedInClient(strict);
    const none = await elsewhere.write('POST', CODE_URL);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('E-mail is not set up on this Portico (PORTICO_SMTP_URL).');
  });
});
