import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig, serverBlocks, splitDump } from './nginx-config';

const dump = (files: Record<string, string>) =>
  Object.entries(files)
    .map(([path, text]) => `# configuration file ${path}:\n${text}\n`)
    .join('\n');

const MAIN = `user www-data;
events { worker_connections 768; }
http {
  include /etc/nginx/conf.d/*.conf;
  include /etc/nginx/sites-enabled/*;
}
stream { include /etc/nginx/streams/*.conf; }`;

/** nginx's `${name}` form of a variable, kept out of template-looking strings. */
const braced = (name: string) => `$${'{'}${name}}`;

describe('parseConfig', () => {
  it('reads directives, blocks, quotes, comments and braced variables', () => {
    const nodes = parseConfig(
      `server { # a comment\n  server_name "a.test" b.test;\n  return 301 https://${braced('host')}$request_uri#x;\n}`,
    );
    expect(nodes).toEqual([
      {
        name: 'server',
        args: [],
        line: 1,
        children: [
          { name: 'server_name', args: ['a.test', 'b.test'], line: 2 },
          { name: 'return', args: ['301', `https://${braced('host')}$request_uri#x`], line: 3 },
        ],
      },
    ]);
  });

  it('closes unbalanced blocks at the end and ignores a stray brace', () => {
    expect(parseConfig('} server { listen 80;')).toEqual([
      { name: 'server', args: [], line: 1, children: [{ name: 'listen', args: ['80'], line: 1 }] },
    ]);
  });
});

describe('serverBlocks', () => {
  it('finds the http servers of each file with their includes read in, not stream servers', () => {
    const files = splitDump(
      dump({
        '/etc/nginx/nginx.conf': MAIN,
        '/etc/nginx/sites-enabled/app': `server {
  listen 80;
  listen [::]:80;
  server_name app.test www.app.test;
  include snippets/app-proxy.conf;
}`,
        '/etc/nginx/snippets/app-proxy.conf': 'location / { proxy_pass http://127.0.0.1:3000; }',
        '/etc/nginx/conf.d/static.conf': `server {
  server_name static.test;
  root /var/www/static;
  location /api/ { proxy_pass http://10.0.0.2:81/v1/; }
}`,
        '/etc/nginx/sites-enabled/tls': `server {
  listen 443 ssl;
  server_name secure.test;
  ssl_certificate /etc/letsencrypt/live/secure.test/fullchain.pem;
  ssl_certificate_key /etc/letsencrypt/live/secure.test/privkey.pem;
  location / { proxy_pass http://127.0.0.1:4000; }
}
server {
  listen 80;
  server_name secure.test;
  if ($host = secure.test) { return 301 https://$host$request_uri; }
  return 404;
}`,
        '/etc/nginx/streams/db.conf': 'server { listen 5432; proxy_pass 10.0.0.3:5432; }',
      }),
    );
    const blocks = serverBlocks(files);
    expect(blocks.map((b) => [b.file, b.serverNames])).toEqual([
      ['/etc/nginx/sites-enabled/app', ['app.test', 'www.app.test']],
      ['/etc/nginx/conf.d/static.conf', ['static.test']],
      ['/etc/nginx/sites-enabled/tls', ['secure.test']],
      ['/etc/nginx/sites-enabled/tls', ['secure.test']],
    ]);
    expect(blocks[0]).toMatchObject({
      listen: [
        { port: 80, ssl: false },
        { port: 80, ssl: false },
      ],
      proxyPass: [{ location: '/', target: 'http://127.0.0.1:3000' }],
    });
    expect(blocks[1]).toMatchObject({
      listen: [{ port: 80, ssl: false }],
      root: '/var/www/static',
      proxyPass: [{ location: '/api/', target: 'http://10.0.0.2:81/v1/' }],
    });
    expect(blocks[2]).toMatchObject({
      listen: [{ port: 443, ssl: true }],
      sslCertificate: '/etc/letsencrypt/live/secure.test/fullchain.pem',
      sslCertificateKey: '/etc/letsencrypt/live/secure.test/privkey.pem',
    });
    expect(blocks[3]!.returns).toEqual(['301 https://$host$request_uri', '404']);
  });

  it('stops at an include loop', () => {
    const files = splitDump(
      dump({
        '/etc/nginx/nginx.conf': 'http { server { server_name loop.test; include a.conf; } }',
        '/etc/nginx/a.conf': 'include b.conf; proxy_pass http://x:1;',
        '/etc/nginx/b.conf': 'include a.conf;',
      }),
    );
    const [block] = serverBlocks(files);
    expect(block!.serverNames).toEqual(['loop.test']);
    expect(block!.proxyPass.length).toBeGreaterThan(0);
    expect(block!.proxyPass.length).toBeLessThanOrEqual(8);
  });

  it('never throws and stays bounded on any input', () => {
    const unit = fc.constantFrom(...'server{};#"\'\\ \n\tlisten_name:80$a/.*include'.split(''));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit, maxLength: 400 }),
          fc.string({ unit: 'binary', maxLength: 400 }),
        ),
        (text) => {
          const blocks = serverBlocks(
            splitDump(`# configuration file /etc/nginx/nginx.conf:\nhttp {${text}`),
          );
          expect(Array.isArray(blocks)).toBe(true);
          for (const block of blocks) expect(block.listen.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a deep nesting without running out of stack', () => {
    const deep = `${'location / {'.repeat(50_000)}${'}'.repeat(50_000)}`;
    expect(() =>
      serverBlocks(splitDump(dump({ '/etc/nginx/nginx.conf': `http { server { ${deep} } }` }))),
    ).not.toThrow();
  });
});
