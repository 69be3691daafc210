import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSiteScan, type TScanContext } from './site-scan';
import { readScanAnswer, ScanAnswerError } from './site-scan-script';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const HASH = 'a'.repeat(64);

function answer(files: Record<string, string>, options: { exit?: number; certs?: string } = {}) {
  const dump = Object.entries(files)
    .map(([path, text]) => `# configuration file ${path}:\n${text}\n`)
    .join('\n');
  const hashes = Object.keys(files)
    .map((path) => `${HASH}  ${path}`)
    .join('\n');
  return [
    `nginx_t_exit=${options.exit ?? 0}`,
    `nginx_t=${b64('nginx: configuration file /etc/nginx/nginx.conf test is successful')}`,
    `dump=${b64(dump)}`,
    `hashes=${b64(hashes)}`,
    `certs=${b64(options.certs ?? '')}`,
    '',
  ].join('\n');
}

const context: TScanContext = {
  serverId: 'server-1',
  viewerId: 'user-1',
  viewerIsAdmin: false,
  proxies: [],
  now: new Date('2026-12-06T12:00:00Z'),
};

const FILES = {
  '/etc/nginx/nginx.conf': 'http { include /etc/nginx/sites-enabled/*; }',
  '/etc/nginx/sites-enabled/app': `server { listen 80; server_name app.test www.app.test;
    location / { proxy_pass http://127.0.0.1:3000; } }`,
  '/etc/nginx/sites-enabled/blog':
    'server { listen 80; server_name blog.test; root /var/www/blog; }',
  '/etc/nginx/sites-enabled/twice': `server { listen 80; server_name dup.test; return 200; }
server { listen 80; server_name dup.test; return 204; }`,
  '/etc/nginx/sites-enabled/proxy-managed.test':
    '# Managed by Portico (proxy site for managed.test -> http://10.0.0.1/).\nserver { listen 80; server_name managed.test; location / { proxy_pass http://10.0.0.1; } }',
  '/etc/nginx/sites-enabled/secure': `server { listen 443 ssl; server_name secure.test;
    ssl_certificate /etc/letsencrypt/live/secure.test/fullchain.pem;
    location / { proxy_pass http://127.0.0.1:4000; } }
server { listen 80; server_name secure.test; return 301 https://$host$request_uri; }`,
};
const CERTS =
  'secure.test\t/etc/letsencrypt/live/secure.test/cert.pem\tnginx\tnginx\tMar  6 12:00:00 2027 GMT\tsecure.test \n';

describe('buildSiteScan', () => {
  it('classifies each site and links certbot certificates', () => {
    const scan = buildSiteScan(readScanAnswer(answer(FILES, { certs: CERTS })), context);
    const byName = Object.fromEntries(scan.sites.map((s) => [s.serverName, s]));
    expect(Object.keys(byName)).toEqual([
      'app.test',
      'blog.test',
      'dup.test',
      'managed.test',
      'secure.test',
      'www.app.test',
    ]);
    expect(byName['app.test']).toMatchObject({
      class: 'adoptable',
      target: 'http://127.0.0.1:3000',
      file: '/etc/nginx/sites-enabled/app',
      fileSha256: HASH,
    });
    expect(byName['www.app.test']!.class).toBe('adoptable');
    expect(byName['blog.test']).toMatchObject({ class: 'not_proxy', reason: 'static' });
    expect(byName['dup.test']).toMatchObject({ class: 'conflict', reason: 'served_twice' });
    expect(byName['managed.test']).toMatchObject({ class: 'managed', reason: 'portico_file' });
    expect(byName['secure.test']).toMatchObject({
      class: 'adoptable',
      tls: true,
      ports: [80, 443],
      certificate: 'secure.test',
      certificateExpiresAt: '2027-03-06T12:00:00.000Z',
      redirect: '301 https://$host$request_uri',
    });
    expect(scan.certificates).toEqual([
      {
        name: 'secure.test',
        domains: ['secure.test'],
        expiresAt: '2027-03-06T12:00:00.000Z',
        authenticator: 'nginx',
        installer: 'nginx',
        path: '/etc/letsencrypt/live/secure.test/cert.pem',
      },
    ]);
    expect(scan.nginxTest.ok).toBe(true);
  });

  it('names a domain another Portico proxy holds as a conflict, and shows an adoption here', () => {
    const proxies = [
      {
        id: 'p1',
        domain: 'app.test',
        userId: 'user-2',
        sshServerId: null,
        origin: 'portico' as const,
        adoptedSha256: null,
      },
      {
        id: 'p2',
        domain: 'blog.test',
        userId: 'user-1',
        sshServerId: 'server-1',
        origin: 'adopted' as const,
        adoptedSha256: 'b'.repeat(64),
      },
    ];
    const scan = buildSiteScan(readScanAnswer(answer(FILES)), { ...context, proxies });
    const app = scan.sites.find((s) => s.serverName === 'app.test')!;
    expect(app).toMatchObject({ class: 'conflict', reason: 'owned_elsewhere', proxyId: null });
    const blog = scan.sites.find((s) => s.serverName === 'blog.test')!;
    expect(blog).toMatchObject({ class: 'adopted', proxyId: 'p2', changedSinceAdoption: true });
  });

  it('calls every site broken when nginx -t fails', () => {
    const scan = buildSiteScan(readScanAnswer(answer(FILES, { exit: 1 })), context);
    expect(scan.nginxTest.ok).toBe(false);
    expect(new Set(scan.sites.map((s) => s.class))).toEqual(new Set(['broken']));
  });

  it('leaves out names and paths outside the allowlist', () => {
    const scan = buildSiteScan(
      readScanAnswer(
        answer({
          '/etc/nginx/nginx.conf': 'http { include /etc/nginx/sites-enabled/*; }',
          '/etc/nginx/sites-enabled/odd':
            'server { server_name ~^(?<x>.+)$ "<script>.test" ok.test; location / { proxy_pass "http://a\u0007b"; } }',
          '/etc/nginx/sites-enabled/bad path<b>': 'server { server_name hidden.test; }',
        }),
      ),
      context,
    );
    expect(scan.sites.map((s) => s.serverName)).toEqual(['ok.test']);
    expect(scan.sites[0]!.proxyPass).toEqual([]);
    expect(scan.skippedNames).toBe(2);
  });
});

describe('readScanAnswer', () => {
  it('refuses an answer that is not the script’s shape', () => {
    expect(() => readScanAnswer('hello')).toThrow(ScanAnswerError);
    expect(() => readScanAnswer('nginx_t_exit=0\nnginx_t=***\n')).toThrow(ScanAnswerError);
    expect(() => readScanAnswer(`nginx_t_exit=0\n${'x'.repeat(5 * 1024 * 1024)}`)).toThrow(
      ScanAnswerError,
    );
  });

  it('any dump gives a scan that passes the shared schema, or a refusal', () => {
    const unit = fc.constantFrom(
      ...'server{};#"\'\\ \n\t_name:80$a/.*<>&proxy_pass http://'.split(''),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit, maxLength: 300 }),
          fc.string({ unit: 'binary', maxLength: 300 }),
        ),
        (text) => {
          const read = readScanAnswer(
            answer({ '/etc/nginx/nginx.conf': `http { server { server_name a.test ${text}` }),
          );
          const scan = buildSiteScan(read, context);
          for (const site of scan.sites) expect(site.serverName).toMatch(/^[a-z0-9*_.-]+$/);
        },
      ),
      { numRuns: 300 },
    );
  });
});
