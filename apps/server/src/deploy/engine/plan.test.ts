// The plan's pure parts: what the engine writes (site-files.ts), what a plan read means and its
// fingerprint (plan-read.ts), and the commands it lists (plan-commands.ts).
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestPki } from '../../../test/support/test-pki';
import { renderFinalSite, renderHttpSite } from '../nginx-site';
import { sitePaths, uploadedCertificateDir } from '../site-names';
import { normalizeTarget } from '../validate';
import { plannedCommands } from './plan-commands';
import { plannedFile } from './plan-deployment';
import { fingerprintOf, parseServerFiles, plannedPaths, type TRemoteFile } from './plan-read';
import { finalFiles, siteBodyOf, siteFiles } from './site-files';
import { uploadedFiles } from './uploaded-certificate';

const domain = 'app.example.com';
const target = normalizeTarget('http://10.0.0.5:8080');
const paths = sitePaths('debian', domain);
const body = siteBodyOf(domain, target, {}, false);
// A sha512-crypt hash as `openssl passwd -6` writes it.
const HASH = `$6$${'s'.repeat(16)}$${'h'.repeat(86)}`;

describe('siteFiles: what each site step writes', () => {
  it('a site with basic-auth users writes its users file, private, in the same step as the site file; without users it is removed', () => {
    const options = { basicAuth: [{ username: 'ann', passwordHash: HASH }] };
    const withUsers = siteBodyOf(domain, target, options, false);
    const files = siteFiles({ domain, body: withUsers, ipv6: true, paths, hasCertificate: true });
    expect(files.httpStep[0]).toEqual({
      path: withUsers.htpasswdPath,
      content: `ann:${HASH}\n`,
      mode: 0o640,
      way: 'private',
    });
    expect(files.httpStep.map((f) => f.path)).toEqual([withUsers.htpasswdPath, paths.file]);
    expect(files.users).toBe(1);
    expect(finalFiles(files).map((f) => f.path)).toEqual([withUsers.htpasswdPath, paths.file]);
    expect(files.finalStep[0]?.content).toContain(
      `auth_basic_user_file ${withUsers.htpasswdPath};`,
    );
    const without = siteFiles({ domain, body, ipv6: true, paths, hasCertificate: true });
    expect(without.httpStep[0]).toEqual({
      path: body.htpasswdPath,
      content: '',
      mode: 0o640,
      way: 'remove',
    });
    expect(without.users).toBe(0);
  });

  it('without a certificate, step 4 writes the HTTP site and step 6 the final one', () => {
    const files = siteFiles({ domain, body, ipv6: true, paths, hasCertificate: false });
    const site = { domain, ...body, ipv6: true };
    expect(files.httpStep).toEqual([
      { path: body.htpasswdPath, content: '', mode: 0o640, way: 'remove' },
      { path: paths.file, content: renderHttpSite(site), mode: 0o644 },
    ]);
    expect(files.finalStep).toEqual([
      { path: paths.file, content: renderFinalSite(site), mode: 0o644 },
    ]);
    expect(files.link).toEqual({ target: paths.file, link: paths.enabledLink });
    // What a completed deployment leaves: each path once, with its last content.
    expect(finalFiles(files)).toEqual([files.httpStep[0], ...files.finalStep]);
  });

  it('with a certificate, step 4 writes the final site at once; the tuning file comes first', () => {
    const tuning = {
      path: '/etc/nginx/conf.d/portico-server-names.conf',
      content: 'x;\n',
      mode: 0o644,
    };
    const files = siteFiles({
      domain,
      body,
      ipv6: false,
      paths: sitePaths('rhel', domain),
      hasCertificate: true,
      tuning,
    });
    expect(files.httpStep.map((f) => f.path)).toEqual([
      body.htpasswdPath,
      tuning.path,
      sitePaths('rhel', domain).file,
    ]);
    expect(files.httpStep[2]!.content).toBe(files.finalStep[0]!.content);
    expect(files.link).toBeUndefined();
    expect(finalFiles(files).map((f) => f.path)).toEqual([
      body.htpasswdPath,
      tuning.path,
      sitePaths('rhel', domain).file,
    ]);
  });
});

describe('reading the server for a plan', () => {
  const all = plannedPaths(domain);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const answer = (lines: string[]) =>
    [...lines, 'PORTICO_CERT=yes', 'PORTICO_READ_DONE=yes'].join('\n');

  it('every path read: files, links, absent ones and the certificate', () => {
    const read = parseServerFiles(
      answer([
        `PORTICO_READ=${all[0]} link ${b64(paths.file)}`,
        `PORTICO_READ=${all[1]} file ${b64('server {}\n')}`,
        `PORTICO_READ=${all[2]} absent`,
        `PORTICO_READ=${all[3]} large ${'a'.repeat(64)}`,
        ...all.slice(4).map((p) => `PORTICO_READ=${p} absent`),
      ]),
      all,
    )!;
    expect(read.hasCertificate).toBe(true);
    expect(read.files.get(all[0]!)).toEqual({ state: 'link', target: paths.file });
    expect(read.files.get(all[1]!)).toMatchObject({ state: 'file', content: 'server {}\n' });
    expect(read.files.get(all[3]!)).toEqual({ state: 'large', sha256: 'a'.repeat(64) });
  });

  it('an answer that is not whole, or names a path not asked for, is no answer', () => {
    const lines = all.map((p) => `PORTICO_READ=${p} absent`);
    expect(parseServerFiles(answer(lines.slice(1)), all)).toBeUndefined();
    expect(
      parseServerFiles(answer([...lines, 'PORTICO_READ=/etc/passwd absent']), all),
    ).toBeUndefined();
    expect(parseServerFiles(lines.join('\n'), all)).toBeUndefined();
  });

  it('the fingerprint changes with a byte of a file, a link target or the certificate, and only then', () => {
    const files = (content: string, link = paths.file) =>
      new Map<string, TRemoteFile>([
        [all[0]!, { state: 'link', target: link }],
        [
          all[1]!,
          { state: 'file', content, sha256: createHash('sha256').update(content).digest('hex') },
        ],
      ]);
    const base = fingerprintOf(files('a\n'), true);
    expect(fingerprintOf(files('a\n'), true)).toBe(base);
    expect(base).toMatch(/^v1:[0-9a-f]{64}$/);
    expect(fingerprintOf(files('a \n'), true)).not.toBe(base);
    expect(fingerprintOf(files('a\n', '/elsewhere'), true)).not.toBe(base);
    expect(fingerprintOf(files('a\n'), false)).not.toBe(base);
  });
});

describe('the commands a plan lists', () => {
  const server = { family: 'debian' as const, prettyName: 'Debian', systemd: true, ipv6: true };
  const facts = {
    server,
    domain,
    missing: [] as ('nginx' | 'certbot')[],
    selinuxOff: false,
    nginxRunning: true,
    hasCertificate: true,
    customScript: false,
  };

  it('a redeploy: one reload, the certificate kept, no install', () => {
    expect(plannedCommands(facts).map((c) => c.kind)).toEqual([
      'test',
      'reload',
      'certificate-keep',
      'test',
      'renewal-check',
    ]);
  });

  it('a bare server: only the missing packages installed, nginx started, the certificate issued and a second reload', () => {
    const commands = plannedCommands({
      ...facts,
      server: { ...server, family: 'rhel', systemd: false },
      missing: ['certbot'],
      selinuxOff: true,
      nginxRunning: false,
      hasCertificate: false,
      customScript: true,
    });
    expect(commands.map((c) => c.kind)).toEqual([
      'install',
      'selinux',
      'start',
      'test',
      'reload',
      'certificate-issue',
      'test',
      'reload',
      'custom-script',
      'renewal-check',
    ]);
    expect(commands[0]!.command).toBe('dnf install -y certbot');
    expect(commands[4]!.command).toBe('kill -HUP <nginx master>');
    // Step 4's gate is nginx -t; step 6's is nginx -T, whose dump the next run's preflight takes.
    expect(commands[3]!.command).toBe('nginx -t');
    expect(commands[6]!.command).toBe('nginx -T');
  });

  it('an uploaded certificate: its files written before the first gate, no certbot, no second reload, no renewal check; earlier uploads removed', () => {
    const upload = `${uploadedCertificateDir(domain)}/0123456789abcdef`;
    const commands = plannedCommands({
      ...facts,
      hasCertificate: false,
      upload,
      uploadedDir: uploadedCertificateDir(domain),
    });
    expect(commands.map((c) => c.kind)).toEqual([
      'certificate-upload',
      'test',
      'reload',
      'test',
      'certificate-upload-remove',
    ]);
    expect(commands[0]!.command).toBe(`install -d -m 0700 ${upload}`);
    expect(commands.some((c) => c.command.includes('certbot'))).toBe(false);
    expect(commands[4]!.command).toContain(`grep -vx ${upload}`);
  });

  it('an upload removed from the proxy: certbot again, and the upload directory goes once the site names certbot’s', () => {
    const commands = plannedCommands({ ...facts, uploadedDir: uploadedCertificateDir(domain) });
    expect(commands.map((c) => c.kind)).toEqual([
      'test',
      'reload',
      'certificate-keep',
      'test',
      'certificate-upload-remove',
      'renewal-check',
    ]);
    expect(commands[4]!.command).toBe(`rm -rf -- ${uploadedCertificateDir(domain)}`);
  });
});

describe('an uploaded certificate in a plan', () => {
  const pki = createTestPki();
  afterAll(() => pki.remove());
  const now = Date.now();
  const pair = pki.leaf({
    names: [domain],
    from: new Date(now - 86_400_000),
    to: new Date(now + 30 * 86_400_000),
  });
  const upload = { chainPem: `${pair.cert}${pki.caPem}`, privateKeyPem: pair.key };

  it('its chain and key where the engine writes them, the key private and never shown; the site names them', () => {
    const files = uploadedFiles(domain, upload)!;
    const dir = files.paths.dir;
    expect(dir.startsWith(`${uploadedCertificateDir(domain)}/`)).toBe(true);
    expect(files.writes.map((f) => [f.path, f.mode])).toEqual([
      [`${dir}/fullchain.pem`, 0o644],
      [`${dir}/privkey.pem`, 0o600],
    ]);
    const [chain, key] = files.writes.map((f) => plannedFile(f, { state: 'absent' }));
    expect(chain).toMatchObject({ change: 'create', private: false });
    expect(chain!.diff).toContain('+-----BEGIN CERTIFICATE-----');
    expect(key).toEqual({
      path: `${dir}/privkey.pem`,
      kind: 'file',
      change: 'create',
      diff: '',
      tooLarge: false,
      private: true,
    });
    // Already there with these bytes: unchanged, still never shown.
    const there = { state: 'file' as const, content: upload.privateKeyPem, sha256: 'x' };
    expect(plannedFile(files.writes[1]!, there)).toMatchObject({ change: 'unchanged', diff: '' });
    const site = siteFiles({
      domain,
      body,
      ipv6: true,
      paths,
      hasCertificate: true,
      certificate: files.paths,
    });
    const final = finalFiles(site).find((f) => f.path === paths.file)!.content;
    expect(final).toContain(`ssl_certificate ${dir}/fullchain.pem;`);
    expect(final).toContain(`ssl_certificate_key ${dir}/privkey.pem;`);
    expect(final).not.toContain('/etc/letsencrypt/live');
  });

  it('a chain without a readable certificate is no upload', () => {
    expect(uploadedFiles(domain, { ...upload, chainPem: 'not a certificate' })).toBeNull();
  });

  it('the upload’s paths are read with the others, so the fingerprint covers them', () => {
    const { writes } = uploadedFiles(domain, upload)!;
    const extra = writes.map((f) => f.path);
    expect(plannedPaths(domain, extra).slice(-2)).toEqual(extra);
  });
});

describe('a planned file', () => {
  const file = (content: string, sha256 = 'x'): TRemoteFile => ({ state: 'file', content, sha256 });

  it('a readable file: a diff against what is there', () => {
    const planned = plannedFile({ path: '/etc/nginx/x', content: 'b\n', mode: 0o644 }, file('a\n'));
    expect(planned).toMatchObject({ change: 'update', private: false });
    expect(planned.diff).toContain('-a\n+b');
  });

  it('a file only root and nginx may read: changed or not by content, never shown', () => {
    const write = { path: '/etc/nginx/portico/htpasswd', content: 'u:$2y$hash\n', mode: 0o640 };
    expect(plannedFile(write, file('u:$2y$old\n'))).toEqual({
      path: write.path,
      kind: 'file',
      change: 'update',
      diff: '',
      tooLarge: false,
      private: true,
    });
    expect(plannedFile(write, file(write.content)).change).toBe('unchanged');
    expect(plannedFile(write, { state: 'absent' })).toMatchObject({ change: 'create', diff: '' });
  });

  it('a users file to remove: said removed while it is there, its hashes never shown', () => {
    const write = {
      path: '/etc/nginx/portico-htpasswd/x',
      content: '',
      mode: 0o640,
      way: 'remove' as const,
    };
    expect(plannedFile(write, file('u:$6$salt$secret-hash\n'))).toEqual({
      path: write.path,
      kind: 'file',
      change: 'remove',
      diff: '',
      tooLarge: false,
      private: true,
    });
    expect(plannedFile(write, { state: 'absent' }).change).toBe('unchanged');
  });
});
