// Issue 8, injection: sites rendered for random valid inputs (domains, targets with scheme, port
// and path, IPv6 on or off, HTTP and final TLS forms) load in a real `nginx -t`, many sites per
// run, in a scratch prefix (nothing under /etc is read or written). A failure names the input
// whose file nginx complained about. Needs /usr/sbin/nginx and openssl.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFinalSite, renderHttpSite, type TSiteInput } from '../deploy/nginx-site';
import {
  certName,
  renderServerNamesTuning,
  serverNamesBucketSize,
  sitePaths,
} from '../deploy/site-names';
import { isDomain } from '../deploy/validate';
import { targetParts, targetText, validDomain } from './injection-corpus';

const NGINX = '/usr/sbin/nginx';
const SITES_PER_RUN = 24;

interface TRenderCase {
  input: TSiteInput;
  final: boolean;
  /** Replaces the rendered text (only the harness self-check uses it). */
  text?: string;
}

// Long labels now and then: long names are where nginx's hash sizes bite.
const domain = fc
  .oneof(
    { weight: 4, arbitrary: validDomain },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.stringMatching(/^[a-z0-9][a-z0-9-]{40,61}[a-z0-9]$/), validDomain)
        .map(([long, rest]) => `${long}.${rest}`),
    },
  )
  .filter(isDomain);
// Upstream host names are resolved when nginx loads a file: addresses and localhost only, so the
// test checks syntax and sends nothing to any resolver.
const target = targetParts(fc.oneof(fc.ipV4(), fc.constant('localhost'))).map(targetText);
const renderCase: fc.Arbitrary<TRenderCase> = fc.record({
  input: fc.record({ domain, target, ipv6: fc.boolean() }),
  final: fc.boolean(),
});
const batch = fc.uniqueArray(renderCase, {
  minLength: 1,
  maxLength: SITES_PER_RUN,
  selector: (c) => c.input.domain,
});

let prefix: string;
let cert: string;
let key: string;
let runNo = 0;

beforeAll(() => {
  prefix = mkdtempSync(join(tmpdir(), 'portico-injection-nginx-'));
  mkdirSync(join(prefix, 'tmp'));
  cert = join(prefix, 'cert.pem');
  key = join(prefix, 'key.pem');
  // biome-ignore format: one argv, easier to read flat
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-subj', '/CN=portico-injection', '-days', '2', '-keyout', key, '-out', cert,
  ], { stdio: 'pipe' });
});

afterAll(() => {
  if (prefix) rmSync(prefix, { recursive: true, force: true });
});

/**
 * Writes every case's site (plus a default server, as on Debian) and the server-names tuning the
 * engine would add, runs `nginx -t` once, and returns '' or nginx's complaint with the input of
 * the file it names.
 */
function nginxTest(cases: TRenderCase[]): string {
  const dir = join(prefix, `run-${++runNo}`);
  const sites = join(dir, 'sites');
  const le = join(dir, 'le');
  mkdirSync(sites, { recursive: true });
  const byFile = new Map<string, TRenderCase>();
  for (const c of cases) {
    const live = join(le, 'live', certName(c.input.domain));
    mkdirSync(live, { recursive: true });
    symlinkSync(cert, join(live, 'fullchain.pem'));
    symlinkSync(key, join(live, 'privkey.pem'));
    const file = join(sites, sitePaths('debian', c.input.domain).file.split('/').at(-1)!);
    const text =
      c.text ??
      (c.final ? renderFinalSite(c.input, { letsencryptDir: le }) : renderHttpSite(c.input));
    writeFileSync(file, text);
    byFile.set(file, c);
  }
  writeFileSync(
    join(sites, 'default'),
    'server { listen 80 default_server; listen [::]:80 default_server; server_name _; return 444; }\n',
  );
  const bucket = Math.max(64, ...cases.map((c) => serverNamesBucketSize(c.input.domain)));
  const t = join(prefix, 'tmp');
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      'events {}',
      'http {',
      '    access_log off;',
      ...(bucket > 64 ? [renderServerNamesTuning(bucket)] : []),
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (k) => `    ${k}_temp_path ${t}/${k};`,
      ),
      `    include ${sites}/*;`,
      '}',
      '',
    ].join('\n'),
  );
  const r = spawnSync(NGINX, ['-t', '-q', '-p', `${dir}/`, '-c', join(dir, 'nginx.conf')], {
    encoding: 'utf8',
  });
  rmSync(dir, { recursive: true, force: true });
  const output = `${r.stdout}${r.stderr}`;
  if (r.status === 0 && output === '') return '';
  const named = [...byFile].find(([file]) => output.includes(file));
  return named
    ? `${output}\nfrom ${named[1].final ? 'final' : 'HTTP'} site ${JSON.stringify(named[1].input)}`
    : `${output}\nfrom one of ${JSON.stringify(cases)}`;
}

describe('injection: rendered sites for random valid inputs pass a real nginx -t', () => {
  it('batches of HTTP and final TLS sites load together', () => {
    fc.assert(
      fc.property(batch, (cases) => {
        expect(nginxTest(cases)).toBe('');
      }),
      { numRuns: 40 },
    );
  });

  it('the harness names the input of a broken site among good ones', () => {
    const input = { domain: 'broken.example', target: 'http://127.0.0.1:8080' };
    const text = renderHttpSite(input).replace('proxy_http_version 1.1;', 'bogus_directive;');
    const complaint = nginxTest([
      { input: { domain: 'fine.example', target: '10.0.0.1' }, final: false },
      { input, final: false, text },
      { input: { domain: 'also-fine.example', target: 'https://localhost/app' }, final: true },
    ]);
    expect(complaint).toContain('unknown directive "bogus_directive"');
    expect(complaint).toContain('from HTTP site {"domain":"broken.example"');
  });
});
