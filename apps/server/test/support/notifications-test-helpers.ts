// Shared by the tests that need alerts to reach an e-mail address: the address verified the way
// a user does it, with the code the SMTP sink received.
import { codeInMail, type TSmtpSink } from './smtp-sink';
import { createTestApp, type TTestApp } from './test-app';
import type { TestClient } from './test-client';
import type { TDatabaseKind } from './test-database';

/** A Portico that sends e-mail through `smtp`; `webhookAllowPrivate` lets webhooks reach loopback. */
export function mailingTestApp(
  kind: TDatabaseKind,
  smtp: TSmtpSink,
  options: { webhookAllowPrivate?: boolean } = {},
): Promise<TTestApp> {
  return createTestApp(kind, {
    config: {
      ...options,
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      mailFrom: 'Portico <portico@example.test>',
    },
  });
}

/** Asks for a code for the signed-in account's address and enters it; throws if either fails. */
export async function verifyAlertEmail(client: TestClient, smtp: TSmtpSink): Promise<void> {
  const before = smtp.messages.length;
  const sent = await client.write('POST', '/api/account/notifications/email/code');
  if (sent.statusCode !== 200) throw new Error(`code not sent: ${sent.body}`);
  const address = sent.json().email as string;
  await smtp.waitFor(before + 1);
  const mail = smtp.messages.slice(before).findLast((m) => m.to.includes(address));
  if (!mail) throw new Error(`no code mailed to ${address}`);
  const verified = await client.write('POST', '/api/account/notifications/email/verify', {
    code: codeInMail(mail),
  });
  if (verified.statusCode !== 200) throw new Error(`code refused: ${verified.body}`);
}
