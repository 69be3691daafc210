import { describe, expect, it } from 'vitest';
import { certbotReason } from './certificate';
import { parseNginxTest } from './nginx-control';
import { bucketSizeSettings, serverNameOwners } from './nginx-dump';

describe('parseNginxTest', () => {
  it('keeps warnings except the http2 deprecation notice of nginx 1.25.1+', () => {
    const out = [
      'nginx: [warn] the "listen ... http2" directive is deprecated, use the "http2" directive instead in /etc/nginx/sites-enabled/proxy-a.test:22',
      'nginx: [warn] conflicting server name "a.test" on 0.0.0.0:80, ignored',
      'nginx: the configuration file /etc/nginx/nginx.conf syntax is ok',
      'nginx: configuration file /etc/nginx/nginx.conf test is successful',
    ].join('\n');
    const r = parseNginxTest(0, out);
    expect(r.ok).toBe(true);
    expect(r.warnings).toEqual([
      'nginx: [warn] conflicting server name "a.test" on 0.0.0.0:80, ignored',
    ]);
  });

  it('a non-zero exit is a failure carrying the output', () => {
    const out =
      'nginx: [emerg] unknown directive "x" in /etc/nginx/conf.d/b.conf:1\nnginx: configuration file /etc/nginx/nginx.conf test failed\n';
    const r = parseNginxTest(1, out);
    expect(r.ok).toBe(false);
    expect(r.output).toContain('[emerg] unknown directive "x"');
  });
});

describe('bucketSizeSettings', () => {
  it('finds the directive per file and ignores commented ones', () => {
    const dump = [
      '# configuration file /etc/nginx/nginx.conf:',
      'http {',
      '\t# server_names_hash_bucket_size 64;',
      '# configuration file /etc/nginx/conf.d/tuning.conf:',
      '    server_names_hash_bucket_size   128 ;',
      '# configuration file /etc/nginx/conf.d/portico-server-names.conf:',
      'server_names_hash_bucket_size 256;',
    ].join('\n');
    expect(bucketSizeSettings(dump)).toEqual([
      { file: '/etc/nginx/conf.d/tuning.conf', size: 128 },
      { file: '/etc/nginx/conf.d/portico-server-names.conf', size: 256 },
    ]);
  });
});

describe('certbotReason', () => {
  it('drops the debug-log and help lines and Portico’s marks, keeps the CA’s reason verbatim', () => {
    const out = [
      'Saving debug log to /var/log/letsencrypt/letsencrypt.log',
      'Certbot failed to authenticate some domains (authenticator: webroot). The Certificate Authority reported these problems:',
      '  Domain: a.test',
      '  Type:   dns',
      '  Detail: no valid A records found for a.test',
      'Ask for help or search for solutions at https://community.letsencrypt.org. See the logfile /tmp/x/log or re-run Certbot with -v for more details.',
      // Portico's own marks: the wait for another certbot, and the site record's look.
      'PORTICO_CERTBOT_BUSY',
      'PORTICO_CERTBOT_STILL',
      'PORTICO_SURVEY:PORTICO_SURVEYED=done',
    ].join('\n');
    expect(certbotReason(out)).toBe(
      [
        'Certbot failed to authenticate some domains (authenticator: webroot). The Certificate Authority reported these problems:',
        '  Domain: a.test',
        '  Type:   dns',
        '  Detail: no valid A records found for a.test',
      ].join('\n'),
    );
  });
});

describe('serverNameOwners', () => {
  it('lists the files naming exactly this domain', () => {
    const dump = [
      '# configuration file /etc/nginx/sites-enabled/default:',
      '\tserver_name _;',
      '# configuration file /etc/nginx/sites-enabled/legacy:',
      '    server_name www.a.test  A.test ;',
      '# configuration file /etc/nginx/conf.d/wild.conf:',
      '    server_name *.a.test;',
      '# configuration file /etc/nginx/conf.d/other.conf:',
      '    server_name b.a.test.example;',
    ].join('\n');
    expect(serverNameOwners(dump, 'a.test')).toEqual(['/etc/nginx/sites-enabled/legacy']);
    expect(serverNameOwners(dump, 'c.test')).toEqual([]);
  });
});
