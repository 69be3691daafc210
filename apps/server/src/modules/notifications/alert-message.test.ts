import { describe, expect, it } from 'vitest';
import { alertMessage, testMessage, webhookBody, whenText } from './alert-message';

const now = new Date('2026-05-20T10:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const inDays = (n: number) => new Date(now.getTime() + n * DAY + 60_000).toISOString();

describe('alert texts', () => {
  it('says when, in each language', () => {
    expect(whenText('en', inDays(9), now)).toBe('in 9 days');
    expect(whenText('es', inDays(9), now)).toBe('dentro de 9 días');
    expect(whenText('en', inDays(1), now)).toBe('in 1 day');
    expect(whenText('es', inDays(0), now)).toBe('hoy');
    expect(whenText('en', new Date(now.getTime() - 3 * DAY).toISOString(), now)).toBe('3 days ago');
  });

  it('writes a warning for the owner and a danger for an administrator, naming the owner', () => {
    const owner = alertMessage(
      'en',
      { kind: 'warning', notAfter: inDays(9) },
      {
        domain: 'shop.example.test',
        now,
      },
    );
    expect(owner.subject).toBe('The certificate for shop.example.test expires in 9 days');
    expect(owner.text).toContain('less than a third of its lifetime is left');
    expect(owner.text).not.toContain('administrator');
    const admin = alertMessage(
      'es',
      { kind: 'danger', notAfter: inDays(3) },
      {
        domain: 'shop.example.test',
        owner: 'alice',
        now,
      },
    );
    expect(admin.subject).toBe(
      'Urgente: el certificado de shop.example.test caduca dentro de 3 días',
    );
    expect(admin.text).toContain('el proxy pertenece a alice');
  });

  it('says the certificate expired once it has', () => {
    const m = alertMessage(
      'en',
      { kind: 'danger', notAfter: new Date(now.getTime() - DAY).toISOString() },
      {
        domain: 'a.example.test',
        now,
      },
    );
    expect(m.subject).toBe('Urgent: the certificate for a.example.test has expired');
  });

  it('quotes the reason of a failed check in the reader language', () => {
    const m = alertMessage(
      'es',
      {
        kind: 'checkFailed',
        reason: { key: 'certificates.problem.refused', params: { where: '198.18.0.11:443' } },
      },
      { domain: 'a.example.test', now },
    );
    expect(m.text).toContain('Nada respondió por HTTPS en 198.18.0.11:443');
  });

  it('gives Slack its text and Discord its content, within Discord limits', () => {
    const long = { subject: 'S', text: 'x'.repeat(3000) };
    const body = webhookBody(long, { event: 'warning' });
    expect(body.text).toBe(body.content);
    expect(body.content.length).toBeLessThanOrEqual(1900);
    expect(body.event).toBe('warning');
    const test = webhookBody(testMessage('en', 'bob'), {});
    expect(test.text).toMatch(
      /^Test message from Portico\n\nThis is a test of Portico's certificate alerts for bob\./,
    );
  });
});
