import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type TSmtpSink } from '../../../test/support/smtp-sink';
import { createMailer } from './mailer';

describe('alert e-mail through SMTP', () => {
  let sink: TSmtpSink;
  let silent: TSmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    silent = await startSmtpSink({ silent: true });
  });
  afterAll(async () => {
    await sink?.close();
    await silent?.close();
  });

  it('delivers the message with its sender, recipient, subject and text, logging in', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://alerts:s3cret@127.0.0.1:${sink.port}`,
      from: 'Portico <portico@example.test>',
    });
    const outcome = await mailer.send({
      to: 'owner@example.test',
      subject: 'El certificado de tienda.example.test caduca dentro de 9 días',
      text: 'Línea uno.\n.Una línea que empieza con un punto.',
    });
    expect(outcome).toEqual({ sent: true });
    const [mail] = await sink.waitFor(1);
    expect(mail!.from).toBe('portico@example.test');
    expect(mail!.to).toEqual(['owner@example.test']);
    expect(mail!.auth).toBe('alerts\0s3cret');
    expect(mail!.data).toMatch(/^From: Portico <portico@example\.test>$/m);
    expect(mail!.data).toMatch(/^To: owner@example\.test$/m);
    expect(mail!.data).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(mail!.data).toContain('Content-Transfer-Encoding: quoted-printable');
  });

  it('ends at its deadline when the server never greets', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${silent.port}`,
      from: 'portico@example.test',
      deadlineMs: 1000,
    });
    const outcome = await mailer.send({ to: 'a@example.test', subject: 's', text: 't' });
    expect(outcome.sent).toBe(false);
  });

  it('says why when nothing listens', async () => {
    const closed = await startSmtpSink();
    await closed.close();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${closed.port}`,
      from: 'portico@example.test',
    });
    const outcome = await mailer.send({ to: 'a@example.test', subject: 's', text: 't' });
    expect(outcome).toMatchObject({ sent: false, reason: expect.stringMatching(/ECONNREFUSED/) });
  });
});
