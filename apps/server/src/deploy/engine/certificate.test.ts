import { describe, expect, it } from 'vitest';
import { certbotHintKey } from './certificate';

describe('certbotHintKey', () => {
  it('names the CA as the cause when certbot could not talk to it', () => {
    // certbot 2.x on Debian 12, the lab's Pebble stopped.
    expect(
      certbotHintKey(
        'An unexpected error occurred:\nValueError: Requesting 198.18.1.2/dir: Connection refused',
      ),
    ).toBe('caUnreachableHint');
    // requests' own text when the acme client does not rewrite it.
    expect(
      certbotHintKey(
        "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='acme-v02.api.letsencrypt.org', port=443): Max retries exceeded with url: /directory (Caused by NewConnectionError('Failed to establish a new connection: [Errno 101] Network is unreachable'))",
      ),
    ).toBe('caUnreachableHint');
  });

  it('names another certbot still at work as the cause, before anything else it said', () => {
    expect(
      certbotHintKey(
        'Another instance of Certbot is already running.\nAsk for help or search for solutions at https://community.letsencrypt.org.',
      ),
    ).toBe('busyHint');
  });

  it('keeps the challenge hint for what the CA found at the domain', () => {
    expect(
      certbotHintKey(
        'Certbot failed to authenticate some domains (authenticator: webroot).\n  Type:   connection\n  Detail: 198.18.1.12: Fetching http://a.example/.well-known/acme-challenge/x: Connection refused',
      ),
    ).toBe('challengeHint');
    expect(certbotHintKey('Requesting a certificate for a.example\nSomething else broke')).toBe(
      undefined,
    );
  });
});
