// The plan before the change (issue 39) on a lab server: what a deployment would do, read over
// SSH and written nowhere, then applied only while the server is as the plan saw it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderText } from '@portico/shared/i18n/text';
import type { TProxyOptions } from '@portico/shared/proxy/options';
import { describe, expect, it } from 'vitest';
import {
  captureLog,
  deployInput,
  engineContext,
  httpsGet,
  oneServerLab,
} from '../../../test/support/lab-helpers';
import { createTestPki } from '../../../test/support/test-pki';
import { sha512Crypt } from '../../lib/sha512-crypt';
import { uploadedCertificateDir } from '../site-names';
import { planDeployment, type TDeployPlan } from './plan-deployment';
import { runDeployment } from './run-deployment';
import type { TDeployInput, TUploadedCertificate } from './types';

const t = oneServerLab();
const domain = () => t.s1.domains[0]!;
const siteFile = () => `/etc/nginx/sites-available/proxy-${domain()}`;
const upstream = () => `http://${t.lab.status.upstream.address}:${t.lab.status.upstream.port}`;

/**
 * Everything a plan could touch, with modes and times: every file and link under /etc/nginx
 * and the ACME webroot with its sha256, and the whole /etc/letsencrypt listing.
 */
async function serverState(): Promise<string> {
  const r = await t.lab.exec(t.s1.name, [
    'bash',
    '-c',
    'find /etc/nginx /var/www /etc/letsencrypt -printf "%p %y %m %T@ %s %l\\n" 2>/dev/null | sort; find /etc/nginx -type f -exec sha256sum {} + | sort',
  ]);
  if (r.code !== 0) throw new Error(`state failed: ${r.stderr}`);
  return r.stdout;
}

function input(overrides: Partial<TDeployInput> = {}): TDeployInput {
  return deployInput(t.lab.status, t.s1, 'root', domain(), overrides);
}

async function plan(targetServer = upstream()): Promise<TDeployPlan> {
  const log = captureLog();
  const outcome = await planDeployment(
    { ...input(), targetServer },
    engineContext(t.lab.status, log),
  );
  if (outcome.status !== 'planned') throw new Error(`plan failed: ${outcome.failure.message}`);
  return outcome.plan;
}

async function apply(fingerprint: string, targetServer = upstream()) {
  const log = captureLog();
  const outcome = await runDeployment(
    input({ targetServer, planFingerprint: fingerprint }),
    engineContext(t.lab.status, log),
  );
  return { outcome, log };
}

/** The changed lines of a diff (its +/- lines without the --- / +++ header). */
function changedLines(diff: string): string[] {
  return diff.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));
}

describe('a plan on a lab server', () => {
  it('for a first deployment lists the files to create and the commands, and writes nothing', async () => {
    const before = await serverState();
    const first = await plan();
    expect(await serverState()).toBe(before);

    expect(first.changes).toBe(true);
    expect(first.certificate).toBe('issue');
    expect(first.reload).toBe(true);
    const site = first.files.find((f) => f.path === siteFile())!;
    expect(site).toMatchObject({ kind: 'file', change: 'create', tooLarge: false });
    expect(site.diff).toContain('--- /dev/null');
    expect(site.diff).toContain(`+        proxy_pass ${upstream()};`);
    expect(site.diff).toContain(
      `+    ssl_certificate /etc/letsencrypt/live/${domain()}/fullchain.pem;`,
    );
    const link = first.files.find((f) => f.kind === 'link')!;
    expect(link).toMatchObject({
      path: `/etc/nginx/sites-enabled/proxy-${domain()}`,
      change: 'create',
    });
    expect(first.commands.map((c) => c.kind)).toEqual([
      'test',
      'reload',
      'certificate-issue',
      'test',
      'reload',
      'renewal-check',
    ]);
    expect(first.commands[2]!.command).toContain(`-d ${domain()} `);

    // Applied while nothing changed: it deploys.
    const { outcome, log } = await apply(first.fingerprint);
    expect(outcome.status, log.text()).toBe('completed');
  });

  it('of no change says no file will change, and writes nothing', async () => {
    const before = await serverState();
    const same = await plan();
    expect(await serverState()).toBe(before);
    expect(same.changes).toBe(false);
    expect(same.files.every((f) => f.change === 'unchanged' && f.diff === '')).toBe(true);
    expect(same.certificate).toBe('keep');
    expect(same.commands.map((c) => c.kind)).toContain('certificate-keep');
  });

  it('of a target change shows the proxy_pass line changed and nginx reloaded; apply serves the new target', async () => {
    const before = await serverState();
    const moved = `${upstream()}/v2/`;
    const change = await plan(moved);
    expect(await serverState()).toBe(before);
    expect(change.changes).toBe(true);
    expect(change.reload).toBe(true);
    const site = change.files.find((f) => f.path === siteFile())!;
    expect(site.change).toBe('update');
    // The header comment names the target too; nothing else in the file changes.
    expect(changedLines(site.diff)).toEqual([
      `-# Managed by Portico (HTTPS site for ${domain()} -> ${upstream()}).`,
      `+# Managed by Portico (HTTPS site for ${domain()} -> ${moved}).`,
      `-        proxy_pass ${upstream()};`,
      `+        proxy_pass ${moved};`,
    ]);
    expect(change.files.filter((f) => f.path !== siteFile()).map((f) => f.change)).toEqual(
      change.files.filter((f) => f.path !== siteFile()).map(() => 'unchanged'),
    );

    const { outcome, log } = await apply(change.fingerprint, moved);
    expect(outcome.status, log.text()).toBe('completed');
    const page = await httpsGet(t.lab.status, t.s1.address, domain(), '/hello');
    expect(JSON.parse(page.body).path).toBe('/v2/hello');
  });

  it('a hand edit between plan and apply makes apply refuse, and the server stays as it was', async () => {
    const back = await plan();
    expect(back.changes).toBe(true);
    const edit = await t.lab.exec(t.s1.name, [
      'bash',
      '-c',
      `printf '# a hand edit\\n' >> ${siteFile()}`,
    ]);
    expect(edit.code).toBe(0);
    const edited = await serverState();

    const { outcome, log } = await apply(back.fingerprint);
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure.code).toBe('server_changed');
    expect(outcome.failure.step).toBe('preflight');
    expect(outcome.failure.message).toContain('The server changed since the plan was made');
    expect(renderText('es', outcome.failure.text)).toContain(
      'El servidor cambió desde que se preparó el plan',
    );
    expect(log.text()).not.toContain('Testing the nginx configuration');
    expect(await serverState()).toBe(edited);
    // Still the target of the last deployment: nothing of the refused apply reached nginx.
    const page = await httpsGet(t.lab.status, t.s1.address, domain(), '/hello');
    expect(JSON.parse(page.body).path).toBe('/v2/hello');

    // A fresh plan sees the hand edit in its diff, and applies.
    const again = await plan();
    expect(changedLines(again.files.find((f) => f.path === siteFile())!.diff)).toContain(
      '-# a hand edit',
    );
    const retried = await apply(again.fingerprint);
    expect(retried.outcome.status, retried.log.text()).toBe('completed');
  });
});

/**
 * Each regular file and link under /etc/nginx, /etc/cron.d (where the renewal step writes) and
 * /etc/portico (uploaded certificates) with its content's hash or target, mode and group: what
 * an apply may change besides certbot's certificate, which the plan names as certbot's command.
 */
async function writableState(): Promise<Map<string, string>> {
  const r = await t.lab.exec(t.s1.name, [
    'bash',
    '-c',
    'find /etc/nginx /etc/cron.d $(ls -d /etc/portico 2>/dev/null) \\( -type f -o -type l \\) -printf "%p %y %m %g %l " -exec sh -c \'[ -L "$1" ] && echo || sha256sum < "$1"\' _ {} \\;',
  ]);
  if (r.code !== 0) throw new Error(`state failed: ${r.stderr}`);
  const state = new Map<string, string>();
  for (const line of r.stdout.trim().split('\n')) {
    const space = line.indexOf(' ');
    state.set(line.slice(0, space), line.slice(space + 1));
  }
  return state;
}

/** The paths whose entry differs between two states (created, changed or removed). */
function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

describe('a plan names every file its apply changes', () => {
  const other = () => t.s1.domains[1]!;
  const users = (name: string, password: string) => [
    { username: name, passwordHash: sha512Crypt(password, `${name}salt`) },
  ];

  /** `trust`: a CA file the verification also trusts (the upload's local CA with the lab's). */
  async function planAndApply(
    options: TProxyOptions,
    upload?: TUploadedCertificate,
    trust?: string,
  ) {
    const given = deployInput(t.lab.status, t.s1, 'root', other(), {
      options,
      ...(upload ? { uploadedCertificate: upload } : {}),
    });
    const planned = await planDeployment(given, engineContext(t.lab.status, captureLog()));
    if (planned.status !== 'planned') throw new Error(`plan failed: ${planned.failure.message}`);
    const before = await writableState();
    const log = captureLog();
    const ctx = engineContext(t.lab.status, log);
    if (trust) ctx.settings.extraCaFile = trust;
    const outcome = await runDeployment(
      { ...given, planFingerprint: planned.plan.fingerprint },
      ctx,
    );
    expect(outcome.status, log.text()).toBe('completed');
    const changed = changedPaths(before, await writableState());
    // An upload directory the plan says goes: its files go with it.
    const removedDirs = planned.plan.commands
      .filter((c) => c.kind === 'certificate-upload-remove')
      .map((c) => c.command.replace('rm -rf -- ', ''));
    const gone = [...before.keys()].filter((p) => removedDirs.some((d) => p.startsWith(`${d}/`)));
    const listed = [
      ...planned.plan.files.filter((f) => f.change !== 'unchanged').map((f) => f.path),
      ...gone,
    ].sort();
    expect(listed).toEqual(changed);
    // The users' hashes never reach a plan, whatever happens to their file.
    expect(JSON.stringify(planned.plan)).not.toContain('$6$');
    return planned.plan;
  }

  it('a first deployment with basic-auth users, a change of users, their removal: the plan lists exactly what changed on the server', async () => {
    const htpasswd = `/etc/nginx/portico-htpasswd/${other()}`;
    const first = await planAndApply({ basicAuth: users('ana', 'lab-password-1') });
    expect(first.files.find((f) => f.path === htpasswd)).toMatchObject({
      change: 'create',
      private: true,
      diff: '',
    });

    const changed = await planAndApply({ basicAuth: users('bea', 'lab-password-2') });
    expect(changed.files.find((f) => f.path === htpasswd)).toMatchObject({
      change: 'update',
      private: true,
      diff: '',
    });

    const removed = await planAndApply({});
    expect(removed.files.find((f) => f.path === htpasswd)).toMatchObject({
      change: 'remove',
      private: true,
      diff: '',
    });

    // Nothing to do: nothing listed as changing, and nothing changes.
    const same = await planAndApply({});
    expect(same.changes).toBe(false);
    expect(same.files.some((f) => f.path === htpasswd)).toBe(false);
  });

  it('an uploaded certificate: its chain and key (the key never shown), the site naming them, no certbot; its removal takes its directory', async () => {
    const pki = createTestPki();
    const dir = mkdtempSync(join(tmpdir(), 'portico-plan-upload-'));
    const trust = join(dir, 'trusted.pem');
    writeFileSync(trust, `${readFileSync(t.lab.status.caRootPath, 'utf8')}\n${pki.caPem}`);
    try {
      const pair = pki.leaf({
        names: [other()],
        from: new Date(Date.now() - 86_400_000),
        to: new Date(Date.now() + 30 * 86_400_000),
      });
      const upload = { chainPem: `${pair.cert}${pki.caPem}`, privateKeyPem: pair.key };
      const served = await planAndApply({}, upload, trust);
      const uploads = uploadedCertificateDir(other());
      const chain = served.files.find((f) => f.path.endsWith('/fullchain.pem'))!;
      const key = served.files.find((f) => f.path.endsWith('/privkey.pem'))!;
      expect(chain.path.startsWith(`${uploads}/`)).toBe(true);
      expect(chain).toMatchObject({ change: 'create', private: false });
      expect(key).toMatchObject({ change: 'create', private: true, diff: '' });
      expect(JSON.stringify(served)).not.toContain('PRIVATE KEY');
      expect(served.certificate).toBe('upload');
      const site = served.files.find(
        (f) => f.path === `/etc/nginx/sites-available/proxy-${other()}`,
      )!;
      expect(site.diff).toContain(`+    ssl_certificate ${chain.path};`);
      expect(served.commands.some((c) => c.command.includes('certbot'))).toBe(false);

      const removed = await planAndApply({});
      expect(removed.certificate).toBe('keep');
      expect(removed.commands.find((c) => c.kind === 'certificate-upload-remove')?.command).toBe(
        `rm -rf -- ${uploads}`,
      );
      expect((await t.lab.exec(t.s1.name, ['test', '-e', uploads])).code).not.toBe(0);
    } finally {
      pki.remove();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
