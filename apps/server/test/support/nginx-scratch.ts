// A real `nginx -t` on rendered sites in a scratch prefix: nothing under /etc is read or
// written. Needs /usr/sbin/nginx and openssl (Debian packages nginx, openssl); files using it are
// named *.nginx.test.ts so the config leaves them out where those are missing.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  certName,
  renderServerNamesTuning,
  serverNamesBucketSize,
  sitePaths,
} from '../../src/deploy/site-names';

const NGINX = '/usr/sbin/nginx';

export interface TScratchSite {
  domain: string;
  /** The site's text, or a function of the run's Let's Encrypt directory (final TLS sites). */
  text: string | ((letsencryptDir: string) => string);
}

export interface TScratchResult {
  ok: boolean;
  output: string;
  /** Where each site was written, in order: nginx names the file it complains about. */
  files: string[];
}

/**
 * Registers the scratch prefix (with a self-signed certificate every site's Let's Encrypt paths
 * point at) for the calling test file and returns `nginxTest`. Like the engine, the config has
 * a default server on :80 beside the sites (so nginx builds its server-names hash) and the
 * server-names tuning when the longest domain needs it, unless `bucketSize` forces a value.
 */
export function useNginxScratch(label = 'portico-nginx') {
  let prefix = '';
  let cert = '';
  let key = '';
  let runNo = 0;

  beforeAll(() => {
    prefix = mkdtempSync(join(tmpdir(), `${label}-`));
    mkdirSync(join(prefix, 'tmp'));
    cert = join(prefix, 'cert.pem');
    key = join(prefix, 'key.pem');
    // biome-ignore format: one argv, easier to read flat
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-subj', `/CN=${label}`, '-days', '2', '-keyout', key, '-out', cert,
    ], { stdio: 'pipe' });
  });

  afterAll(() => {
    if (prefix) rmSync(prefix, { recursive: true, force: true });
  });

  return function nginxTest(sites: TScratchSite[], bucketSize?: number): TScratchResult {
    const dir = join(prefix, `run-${++runNo}`);
    const sitesDir = join(dir, 'sites');
    const le = join(dir, 'le');
    mkdirSync(sitesDir, { recursive: true });
    const files = sites.map((site) => {
      const live = join(le, 'live', certName(site.domain));
      mkdirSync(live, { recursive: true });
      symlinkSync(cert, join(live, 'fullchain.pem'));
      symlinkSync(key, join(live, 'privkey.pem'));
      const file = join(sitesDir, sitePaths('debian', site.domain).file.split('/').at(-1)!);
      writeFileSync(file, typeof site.text === 'string' ? site.text : site.text(le));
      return file;
    });
    writeFileSync(
      join(sitesDir, 'default'),
      'server { listen 80 default_server; listen [::]:80 default_server; server_name _; return 444; }\n',
    );
    const size = bucketSize ?? Math.max(64, ...sites.map((s) => serverNamesBucketSize(s.domain)));
    const tuning = bucketSize
      ? [`server_names_hash_bucket_size ${bucketSize};`]
      : size > 64
        ? [renderServerNamesTuning(size)]
        : [];
    const t = join(prefix, 'tmp');
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log;`,
        'events {}',
        'http {',
        '    access_log off;',
        ...tuning,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (k) => `    ${k}_temp_path ${t}/${k};`,
        ),
        `    include ${sitesDir}/*;`,
        '}',
        '',
      ].join('\n'),
    );
    const r = spawnSync(NGINX, ['-t', '-q', '-p', `${dir}/`, '-c', join(dir, 'nginx.conf')], {
      encoding: 'utf8',
    });
    rmSync(dir, { recursive: true, force: true });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}`, files };
  };
}
