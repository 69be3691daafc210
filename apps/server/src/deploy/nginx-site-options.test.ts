import type { TProxyOptions } from '@portico/shared/proxy/options';
import { describe, expect, it } from 'vitest';
import { renderFinalSite, renderHttpSite } from './nginx-site';
import { DeployValidationError } from './validate';

const HASH = `$6$saltsalt$${'a'.repeat(86)}`;
const site = (options: TProxyOptions, extra: object = {}) => ({
  domain: 'app.example.com',
  target: 'http://10.0.0.1:8080',
  options,
  htpasswdPath: '/etc/nginx/portico-htpasswd/app.example.com',
  ...extra,
});
const final = (options: TProxyOptions, extra: object = {}) =>
  renderFinalSite(site(options, extra), { letsencryptDir: '/etc/letsencrypt' });

/** The TLS server block: the part after `listen 443`. */
const tlsBlock = (text: string) => text.slice(text.indexOf('listen 443'));

describe('options in the site file', () => {
  it('no options render exactly what the site was without them', () => {
    expect(renderHttpSite(site({}))).toBe(
      renderHttpSite({ domain: 'app.example.com', target: 'http://10.0.0.1:8080' }),
    );
  });

  it('several upstreams: one group with its method, weights, backup and passive health', () => {
    const text = final({
      upstreams: [
        { url: 'http://10.0.0.1:8080' },
        { url: '10.0.0.2:8081', weight: 3 },
        { url: '10.0.0.3', backup: true },
      ],
      loadBalancing: 'least_conn',
      health: { maxFails: 2, failTimeout: 20 },
    });
    expect(text).toContain(
      [
        'upstream portico_up_app.example.com {',
        '    least_conn;',
        '    server 10.0.0.1:8080 max_fails=2 fail_timeout=20s;',
        '    server 10.0.0.2:8081 weight=3 max_fails=2 fail_timeout=20s;',
        '    server 10.0.0.3:80 max_fails=2 fail_timeout=20s backup;',
        '}',
      ].join('\n'),
    );
    expect(tlsBlock(text)).toContain('proxy_pass http://portico_up_app.example.com;');
  });

  it('an https group keeps its path and sends the first host as SNI', () => {
    const text = final({
      upstreams: [{ url: 'https://a.internal/app' }, { url: 'https://b.internal/app' }],
      loadBalancing: 'ip_hash',
    });
    expect(text).toContain('    ip_hash;\n    server a.internal:443;\n    server b.internal:443;');
    expect(text).toContain('proxy_pass https://portico_up_app.example.com/app/;');
    expect(text).toContain('proxy_ssl_name a.internal;');
  });

  it('HSTS only over TLS; headers, limits, timeouts, WebSocket off and compression', () => {
    const options: TProxyOptions = {
      hsts: { maxAge: 31536000, includeSubDomains: true, preload: true },
      headers: [{ name: 'X-Frame-Options', value: 'DENY' }],
      clientMaxBodyMb: 0,
      timeouts: { connect: 5, read: 900 },
      websocket: false,
      compression: true,
    };
    const text = final(options);
    expect(tlsBlock(text)).toContain(
      'add_header Strict-Transport-Security "max-age=31536000; includeSubDomains; preload" always;',
    );
    expect(text.indexOf('Strict-Transport-Security')).toBeGreaterThan(text.indexOf('listen 443'));
    expect(renderHttpSite(site(options))).not.toContain('Strict-Transport-Security');
    expect(text).toContain('add_header X-Frame-Options "DENY" always;');
    expect(text).toContain('client_max_body_size 0m;');
    expect(text).toContain('proxy_connect_timeout 5s;');
    expect(text).toContain('proxy_send_timeout 300s;');
    expect(text).toContain('proxy_read_timeout 900s;');
    expect(text).toContain('proxy_set_header Connection "";');
    expect(text).not.toContain('proxy_set_header Upgrade');
    expect(text).toContain('    gzip on;');
    expect(final({ compression: false })).toContain('    gzip off;');
  });

  it('access: denied first, allowed, then everyone else denied; basic auth; the ACME path exempt', () => {
    const whole = final({
      allow: ['10.0.0.0/8'],
      deny: ['10.0.0.5'],
      basicAuth: [{ username: 'ana', passwordHash: HASH }],
    });
    const text = tlsBlock(whole);
    // Port 80 only redirects (nginx answers a `return` before access rules): no password in clear.
    const port80 = whole.slice(0, whole.indexOf('listen 443'));
    expect(port80).not.toContain('auth_basic "');
    expect(text).toContain('    deny 10.0.0.5;\n    allow 10.0.0.0/8;\n    deny all;\n');
    expect(text).toContain(
      '    auth_basic "Restricted";\n    auth_basic_user_file /etc/nginx/portico-htpasswd/app.example.com;',
    );
    expect(text).toContain(
      '    location ^~ /.well-known/acme-challenge/ {\n        root /var/www/portico-acme;\n        default_type text/plain;\n        allow all;\n        auth_basic off;\n    }',
    );
  });

  it('locations each proxy to their own group, before location /', () => {
    const text = tlsBlock(
      final({ locations: [{ path: '/api/', upstreams: [{ url: 'http://10.0.0.9:9000/v1' }] }] }),
    );
    expect(
      final({ locations: [{ path: '/api/', upstreams: [{ url: '10.0.0.9:9000' }] }] }),
    ).toContain('upstream portico_up_app.example.com_1 {\n    server 10.0.0.9:9000;\n}');
    expect(text).toMatch(
      /location \/api\/ \{\n {8}proxy_pass http:\/\/portico_up_app\.example\.com_1\/v1\/;[\s\S]*location \/ \{\n {8}proxy_pass http:\/\/10\.0\.0\.1:8080;/,
    );
  });

  it.each([
    [
      { to: 'https://new.example', code: 301, keepPath: true },
      'return 301 https://new.example$request_uri;',
    ],
    [
      { to: 'https://new.example/base/', code: 308, keepPath: true },
      'return 308 https://new.example/base$request_uri;',
    ],
    [
      { to: 'http://new.example:8080/x', code: 302, keepPath: false },
      'return 302 http://new.example:8080/x/;',
    ],
  ] as const)('a redirect host answers %o', (redirect, line) => {
    const text = tlsBlock(final({ redirect: { ...redirect } }));
    expect(text).toContain(line);
    expect(text).not.toContain('proxy_pass');
  });

  it('advanced lines only where the instance allows them', () => {
    expect(() => final({ advanced: 'proxy_buffering off;' })).toThrow(DeployValidationError);
    expect(
      final({ advanced: 'proxy_buffering off;\n\nadd_header X-A "b";' }, { allowAdvanced: true }),
    ).toContain('    proxy_buffering off;\n    add_header X-A "b";\n');
  });

  it.each([
    ['a header value with a line break', { headers: [{ name: 'X-A', value: 'a\nb' }] }],
    ['a location path with {', { locations: [{ path: '/a{', upstreams: [{ url: '10.0.0.1' }] }] }],
    ['a CIDR with host bits', { deny: ['10.0.0.1/8'] }],
    ['a password in clear', { basicAuth: [{ username: 'ana', password: 'secret' }] }],
    ['an unknown key', { rewrite: 'x' }],
  ])('stored options that fail the allowlist are refused at render: %s', (_, options) => {
    const error = (() => {
      try {
        final(options as TProxyOptions);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DeployValidationError);
    expect(error).toMatchObject({ field: 'options', reason: 'options' });
  });
});
