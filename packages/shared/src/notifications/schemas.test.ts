import { describe, expect, it } from 'vitest';
import { isWebhookUrl, ZNotificationSettingsInput } from './schemas';

describe('webhook URLs', () => {
  it.each([
    'https://hooks.slack.com/services/T000/B000/XXXX',
    'https://discord.com/api/webhooks/1/abc',
    'http://10.0.0.5:8080/hook',
  ])('accepts %s', (url) => {
    expect(isWebhookUrl(url)).toBe(true);
  });

  it.each([
    'ftp://example.com/hook',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'https://user:pw@example.com/hook',
    'https://example.com/a b',
    'https://example.com/\nX-Injected: 1',
    'not a url',
    `https://example.com/${'a'.repeat(2100)}`,
  ])('refuses %s', (url) => {
    expect(isWebhookUrl(url)).toBe(false);
  });

  it('reads null as "remove" and a missing URL as "keep"', () => {
    expect(ZNotificationSettingsInput.parse({ emailEnabled: true, webhookUrl: null })).toEqual({
      emailEnabled: true,
      webhookUrl: null,
    });
    expect(ZNotificationSettingsInput.parse({ emailEnabled: false })).toEqual({
      emailEnabled: false,
    });
    const bad = ZNotificationSettingsInput.safeParse({ emailEnabled: true, webhookUrl: 'ftp://x' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('validation.webhook.invalid');
  });
});
