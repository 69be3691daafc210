import { describe, expect, it } from 'vitest';
import { ACME_WEBROOT, renderFinalSite, renderHttpSite } from './nginx-site';
import { DeployValidationError } from './validate';

const input = { domain: 'app.example.com', target: 'http://198.18.0.50:8080' };

/** The lines of one `server { … }` block, found by one of its listen lines. */
function serverBlock(site: string, listenLine: string): string {
  const blocks = site.split(/^server \{$/m).slice(1);
  const found = blocks.find((b) => b.includes(listenLine));
  if (!found) throw new Error(`no server block with ${listenLine}`);
  return found.slice(0, found.search(/^\}$/m));
}

describe('renderHttpSite', () => {
  const site = renderHttpSite(input);

  it('listens on 80 for IPv4 and IPv6 under the domain only', () => {
    expect(site).toContain('    listen 80;\n');
    expect(site).toContain('    listen [::]:80;\n');
    expect(site).toContain('    server_name app.example.com;\n');
    expect(site).not.toContain('443');
    expect(site).not.toContain('default_server');
  });

  it('serves the ACME challenge from the webroot with a prefix match that beats regexes', () => {
    expect(site).toContain(
      `    location ^~ /.well-known/acme-challenge/ {\n        root ${ACME_WEBROOT};\n        default_type text/plain;\n    }`,
    );
  });

  it('proxies to the normalised target with forwarding and WebSocket headers', () => {
    expect(site).toContain('proxy_pass http://198.18.0.50:8080;');
    for (const h of [
      'proxy_set_header Host $host;',
      'proxy_set_header X-Real-IP $remote_addr;',
      'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      'proxy_set_header X-Forwarded-Proto $scheme;',
      'proxy_set_header Upgrade $http_upgrade;',
      'proxy_set_header Connection $portico_connection_upgrade;',
      'proxy_http_version 1.1;',
    ]) {
      expect(site).toContain(h);
    }
    expect(site).toMatch(/^map \$http_upgrade \$portico_connection_upgrade \{$/m);
    expect(site).not.toContain('ssl_certificate');
  });

  it('normalises the target it is given', () => {
    const s = renderHttpSite({ domain: 'a.example', target: 'HTTPS://Up.Example:8443/App' });
    expect(s).toContain('proxy_pass https://up.example:8443/App/;');
    expect(s).toContain('proxy_ssl_server_name on;');
    expect(renderHttpSite({ domain: 'a.example', target: '10.0.0.1' })).toContain(
      'proxy_pass http://10.0.0.1;',
    );
  });

  it('can leave out IPv6', () => {
    const s = renderHttpSite({ ...input, ipv6: false });
    expect(s).toContain('listen 80;');
    expect(s).not.toContain('[::]');
  });
});

describe('renderFinalSite', () => {
  const site = renderFinalSite(input);
  const http = serverBlock(site, 'listen 80;');
  const https = serverBlock(site, 'listen 443 ssl http2;');

  it('redirects port 80 to the HTTPS domain, except the ACME path', () => {
    expect(http).toContain('server_name app.example.com;');
    expect(http).toContain('location ^~ /.well-known/acme-challenge/ {');
    expect(http).toContain('return 301 https://app.example.com$request_uri;');
    expect(http).not.toContain('proxy_pass');
    expect(http).toContain('listen [::]:80;');
  });

  it('serves TLS with HTTP/2 and the Let’s Encrypt certificate of the domain', () => {
    expect(https).toContain('listen [::]:443 ssl http2;');
    expect(https).toContain('ssl_certificate /etc/letsencrypt/live/app.example.com/fullchain.pem;');
    expect(https).toContain(
      'ssl_certificate_key /etc/letsencrypt/live/app.example.com/privkey.pem;',
    );
    expect(https).toContain('proxy_pass http://198.18.0.50:8080;');
    expect(https).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
    expect(https).toContain('proxy_set_header Connection $portico_connection_upgrade;');
    expect(https).toContain('location ^~ /.well-known/acme-challenge/ {');
    expect(https).not.toContain('return 301');
  });

  it('defines the WebSocket map once per file', () => {
    expect(site.match(/^map /gm)).toHaveLength(1);
  });

  it('takes another Let’s Encrypt directory only when it is a safe absolute path', () => {
    expect(renderFinalSite(input, { letsencryptDir: '/tmp/x/le' })).toContain(
      'ssl_certificate /tmp/x/le/live/app.example.com/fullchain.pem;',
    );
    for (const bad of ['relative', '/a b', '/a;b', '/a/', '/a\n', '/$x']) {
      expect(() => renderFinalSite(input, { letsencryptDir: bad })).toThrow(DeployValidationError);
    }
  });
});

describe('a wildcard site (DNS-01)', () => {
  const wildcard = { ...input, domain: '*.example.com' };

  it('serves every subdomain, and the apex only when asked', () => {
    expect(renderHttpSite(wildcard)).toContain('server_name *.example.com;');
    const site = renderFinalSite({ ...wildcard, apex: true });
    const https = serverBlock(site, 'listen 443 ssl http2;');
    expect(https).toContain('server_name *.example.com example.com;');
    expect(https).toContain(
      'ssl_certificate /etc/letsencrypt/live/_wildcard.example.com/fullchain.pem;',
    );
  });

  it('redirects to the name asked for, which server_name has matched', () => {
    const http = serverBlock(renderFinalSite(wildcard), 'listen 80;');
    expect(http).toContain('return 301 https://$host$request_uri;');
  });

  it('refuses the apex flag on a plain name and a wildcard over a public suffix', () => {
    expect(() => renderHttpSite({ ...input, apex: true })).toThrow(DeployValidationError);
    expect(() => renderHttpSite({ ...input, domain: '*.co.uk' })).toThrow(DeployValidationError);
  });
});

describe('render refuses what validate.ts refuses', () => {
  const badDomains = ['x; return 200', 'a.example\n', 'a.example;', 'A.example', '{a}.example'];
  const badTargets = [
    'http://h.example; return 200',
    'http://h.example/a;b',
    'http://h.example/$host',
    'http://h.example\n',
    'http://h.example/a b',
    'ftp://h.example',
  ];
  it.each(badDomains)('domain %j', (domain) => {
    expect(() => renderHttpSite({ domain, target: '10.0.0.1' })).toThrow(DeployValidationError);
    expect(() => renderFinalSite({ domain, target: '10.0.0.1' })).toThrow(DeployValidationError);
  });
  it.each(badTargets)('target %j', (target) => {
    expect(() => renderHttpSite({ domain: 'a.example', target })).toThrow(DeployValidationError);
    expect(() => renderFinalSite({ domain: 'a.example', target })).toThrow(DeployValidationError);
  });
  it('a target object not in normal form', () => {
    expect(() =>
      renderHttpSite({ domain: 'a.example', target: { scheme: 'http', host: 'h;', path: '' } }),
    ).toThrow(DeployValidationError);
  });
});
