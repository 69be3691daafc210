import { HEALTHY_DEBIAN_ANSWER, HEALTHY_DEBIAN_FACTS } from '@portico/shared/test/server-facts';
import { describe, expect, it } from 'vitest';
import { FactsAnswerError, parseFacts } from './server-facts';

describe('parseFacts', () => {
  it('reads every fact of a well-formed answer', () => {
    expect(parseFacts(`${HEALTHY_DEBIAN_ANSWER}\n`)).toEqual(HEALTHY_DEBIAN_FACTS);
    const viaSudo = HEALTHY_DEBIAN_ANSWER.replace('root=root', 'root=sudo_nopasswd');
    expect(parseFacts(viaSudo).rootAccess).toBe('sudo_nopasswd');
  });

  it('reads a bare server: nothing installed, holders unseen, CRLF line ends', () => {
    const bare = [
      'os_id=ubuntu',
      'os_version=24.04',
      'os_name=Ubuntu 24.04.1 LTS',
      'init=sysvinit',
      'root=sudo_password',
      'nginx_version=',
      'nginx_running=no',
      'certbot_version=',
      'renewal=none',
      'port_80=listening ',
      'port_443=free',
      'disk_free_kb=0',
    ].join('\r\n');
    expect(parseFacts(bare)).toMatchObject({
      os: { id: 'ubuntu', version: '24.04' },
      rootAccess: 'sudo_password',
      nginx: { version: null, running: false },
      certbot: { version: null },
      ports: [
        { port: 80, listening: true, program: null },
        { port: 443, listening: false, program: null },
      ],
      diskFreeBytes: 0,
    });
  });

  it('turns hostile or unknown values into "unknown" or the safe default, never stores them', () => {
    const hostile = [
      'os_id=<script>alert(1)</script>',
      'os_version=12; rm -rf /',
      `os_name=${'A'.repeat(500)}`,
      'init=launchd',
      'root=root-ish',
      'nginx_version=1.2.3 <b>',
      'nginx_running=YES',
      'certbot_version=$(reboot)',
      'renewal=anacron',
      'port_80=listening ng"inx',
      'port_443=listening ../../etc',
      'disk_free_kb=-5',
      'dns_plugins=read',
      'dns_offered=python3-certbot-dns-ovh; rm -rf /',
      'dns_offered=../../python3-certbot-dns-x',
      `dns_offered=python3-certbot-dns-${'a'.repeat(60)}`,
      'dns_installed=python3-certbot-dns-<b>',
      'secret=value',
      'os_id=debian',
    ].join('\n');
    const facts = parseFacts(hostile);
    expect(facts).toEqual({
      os: { id: null, version: null, name: null },
      initSystem: 'other',
      rootAccess: 'none',
      nginx: { version: null, running: false },
      certbot: { version: null },
      renewal: 'none',
      ports: [
        { port: 80, listening: true, program: null },
        { port: 443, listening: true, program: null },
      ],
      diskFreeBytes: null,
      dnsPlugins: { installed: [], offered: [] },
    });
    expect(JSON.stringify(facts)).not.toContain('secret');
  });

  it("reads certbot's DNS plugins: each offered once, the installed ones offered too", () => {
    const answer = [
      'dns_plugins=read',
      'dns_offered=python3-certbot-dns-ovh',
      'dns_offered=python3-certbot-dns-cloudflare',
      'dns_offered=python3-certbot-dns-ovh',
      'dns_installed=python3-certbot-dns-gandi',
    ].join('\n');
    expect(parseFacts(answer).dnsPlugins).toEqual({
      installed: ['python3-certbot-dns-gandi'],
      offered: [
        'python3-certbot-dns-cloudflare',
        'python3-certbot-dns-gandi',
        'python3-certbot-dns-ovh',
      ],
    });
    // An index Portico could not read says nothing: unknown, not "none offered".
    expect(parseFacts('dns_offered=python3-certbot-dns-ovh').dnsPlugins).toBeNull();
    const many = Array.from({ length: 60 }, (_, i) => `dns_offered=python3-certbot-dns-p${i}`);
    expect(parseFacts(['dns_plugins=read', ...many].join('\n')).dnsPlugins?.offered).toHaveLength(
      40,
    );
  });

  it('refuses an answer longer than any real one, and reads an empty one as unknown', () => {
    expect(() => parseFacts(`${HEALTHY_DEBIAN_ANSWER}\n${'x'.repeat(10_000)}`)).toThrow(
      FactsAnswerError,
    );
    expect(parseFacts('')).toMatchObject({ os: { id: null }, rootAccess: 'none' });
  });
});
