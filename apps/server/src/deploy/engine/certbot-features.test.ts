import { renderText } from '@portico/shared/i18n/text';
import { describe, expect, it } from 'vitest';
import { certbotFeatures, certbotFeaturesLine, parseCertbotVersion } from './certbot-features';

describe("the server's certbot and short lifetimes", () => {
  it('reads the version certbot prints, and nothing else', () => {
    expect(parseCertbotVersion('certbot 2.1.0')).toEqual({ text: '2.1.0', major: 2, minor: 1 });
    expect(parseCertbotVersion('4.1.1\n')).toEqual({ text: '4.1.1', major: 4, minor: 1 });
    expect(parseCertbotVersion('5.0.0.dev0')).toMatchObject({ major: 5, minor: 0 });
    expect(parseCertbotVersion('sh: 1: certbot: not found')).toBeNull();
    expect(parseCertbotVersion('')).toBeNull();
  });

  it('uses profiles from 4.0 and ARI from 4.1 (Debian 12 ships 2.1: neither)', () => {
    const of = (v: string) => certbotFeatures(parseCertbotVersion(v));
    expect(of('certbot 2.1.0')).toEqual({ profiles: false, ari: false });
    expect(of('certbot 3.3.0')).toEqual({ profiles: false, ari: false });
    expect(of('certbot 4.0.0')).toEqual({ profiles: true, ari: false });
    expect(of('certbot 4.1.0')).toEqual({ profiles: true, ari: true });
    expect(of('certbot 5.2.1')).toEqual({ profiles: true, ari: true });
    expect(certbotFeatures(null)).toEqual({ profiles: false, ari: false });
  });

  it('says in the log which it used, in either language', () => {
    const line = (v: string, profile?: string, lang: 'en' | 'es' = 'en') =>
      renderText(lang, certbotFeaturesLine(parseCertbotVersion(v), profile));
    expect(line('certbot 2.1.0', 'shortlived')).toMatch(
      /^certbot 2\.1\.0: ACME profiles not supported .*; renewal information \(ARI\) not supported: renewals come 30 days before the end/,
    );
    expect(line('certbot 4.0.0', 'shortlived')).toMatch(
      /^certbot 4\.0\.0: ACME profile “shortlived” asked for .*; renewal information \(ARI\) not supported: renewals come with a third/,
    );
    expect(line('certbot 4.1.0')).toMatch(
      /^certbot 4\.1\.0: ACME profiles supported, none set .*; renewal information \(ARI\) used/,
    );
    expect(line('certbot 2.1.0', undefined, 'es')).toMatch(
      /^certbot 2\.1\.0: no admite perfiles ACME .*; no admite la información de renovación/,
    );
    expect(line('sh: certbot: not found')).toBe(
      'certbot did not say its version: no ACME profile asked for.',
    );
  });
});
