// Your own certificate served (issue 41) on a real lab server (sshd, nginx, certbot, Pebble),
// through the API: an upload made by a local openssl CA is deployed and seen from outside (the
// TLS handshake's fingerprint is the upload's), its key root's alone on the server; a second
// upload replaces it and the first one's files go; removing the upload brings Pebble's
// certificate back on the next deployment and the files leave the server. Through the engine: a
// chain and a key that do not belong together are refused by nginx -t and the site keeps
// serving what it served.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TDeployPlan, TProxyConfiguration } from '@portico/shared/proxy/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLab, TLabServer } from '../../../../../testbed/src/lab';
import {
  certificateCalls,
  ownerWithRootProxy,
  waitUntil,
} from '../../../test/support/certificate-lab-helpers';
import { captureLog, deployInput, engineContext } from '../../../test/support/lab-helpers';
import { labAppPerFile } from '../../../test/support/lab-in-process-app';
import { waitForStatus } from '../../../test/support/proxies-test-helpers';
import type { TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { createTestPki } from '../../../test/support/test-pki';
import { runDeployment } from '../../deploy/engine/run-deployment';
import { uploadedCertificateDir } from '../../deploy/site-names';
import { tlsHandshake } from '../../net/tls-probe';

const DAY = 24 * 60 * 60 * 1000;
const pki = createTestPki();
const dir = mkdtempSync(join(tmpdir(), 'portico-uploaded-'));
/** Pebble's root and the local CA's: what the verification and the watch trust. */
const trusted = join(dir, 'trusted.pem');
const run = labAppPerFile({ servers: 1 }, (lab) => {
  writeFileSync(trusted, `${readFileSync(lab.status.caRootPath, 'utf8')}\n${pki.caPem}`);
  return {
    deploy: { settings: { acmeDirectoryUrl: lab.status.acmeDirectoryUrl, extraCaFile: trusted } },
  };
});
let lab: TLab;
let s1: TLabServer;
let t: TTestApp;

beforeAll(() => {
  ({ lab, s1, t } = run);
});

afterAll(() => {
  pki.remove();
  rmSync(dir, { recursive: true, force: true });
});

async function served(domain: string) {
  const hs = await tlsHandshake(
    { address: s1.address, domain },
    { ca: [readFileSync(trusted, 'utf8')], timeoutMs: 10_000, rejectUnauthorized: true },
  );
  return { fingerprint: hs.cert.fingerprint256, issuer: hs.cert.issuer.CN };
}

const onServer = async (argv: string[]) => lab.exec(s1.name, argv);

describe('an uploaded certificate on a lab server, through the API', () => {
  let client: TestClient;
  let id: string;
  const domain = () => s1.domains[0]!;
  const { status, checkNow } = certificateCalls(
    () => client,
    () => id,
  );
  const leaf = () =>
    pki.leaf({
      names: [domain()],
      from: new Date(Date.now() - DAY),
      to: new Date(Date.now() + 30 * DAY),
    });

  async function upload(pair: { cert: string; key: string }) {
    const r = await client.write('PUT', `/api/proxy-configurations/${id}/certificate/custom`, {
      certificate: `${pair.cert}${pki.caPem}`,
      privateKey: pair.key,
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { fingerprint: string };
  }

  async function deploy() {
    expect((await client.write('POST', `/api/deploy/${id}`)).statusCode).toBe(202);
    const proxy = await waitForStatus(client, id, (s) => s !== 'deploying');
    expect(proxy.status, JSON.stringify(proxy.lastFailure)).toBe('completed');
    return proxy as TProxyConfiguration;
  }

  beforeAll(async () => {
    ({ client, id } = await ownerWithRootProxy(t, lab.status, s1, domain()));
  });

  it('serves the upload, its key readable by root alone, and says you renew it', async () => {
    const uploaded = await upload(leaf());
    // The plan says what the deployment will do: the upload's files, no certbot.
    const planned = await client.write('POST', `/api/proxy-configurations/${id}/plan`, {});
    expect(planned.statusCode, planned.body).toBe(200);
    const plan = planned.json() as TDeployPlan;
    expect(plan.certificate).toBe('upload');
    expect(plan.commands.some((c) => c.command.includes('certbot'))).toBe(false);
    expect(plan.files.find((f) => f.path.endsWith('/privkey.pem'))).toMatchObject({
      change: 'create',
      private: true,
      diff: '',
    });
    expect(planned.body).not.toContain('PRIVATE KEY');
    const proxy = await deploy();
    expect(await served(domain())).toEqual({
      fingerprint: uploaded.fingerprint,
      issuer: 'Portico Test CA',
    });
    const files = await onServer([
      'bash',
      '-c',
      'stat -c "%a %U %n" "$1" "$1"/* "$1"/*/*',
      '-',
      uploadedCertificateDir(domain()),
    ]);
    const version = uploaded.fingerprint.replaceAll(':', '').toLowerCase().slice(0, 16);
    const base = `${uploadedCertificateDir(domain())}/${version}`;
    expect(files.stdout.trim().split('\n')).toEqual([
      `700 root ${uploadedCertificateDir(domain())}`,
      `700 root ${base}`,
      `644 root ${base}/fullchain.pem`,
      `600 root ${base}/privkey.pem`,
    ]);
    // "On the server" lists it, as the engine saw it there.
    expect(proxy.serverSites.map((site) => site.uploaded)).toEqual([
      {
        path: `${base}/fullchain.pem`,
        fingerprint: uploaded.fingerprint,
        expiresAt: expect.any(String),
      },
    ]);
    // certbot was not asked: no certificate of its own for the domain.
    expect((await onServer(['ls', '/etc/letsencrypt/live'])).stdout).not.toContain(domain());
    const checked = await checkNow();
    expect(checked.check.ok).toBe(true);
    expect(checked.served.fingerprint).toBe(uploaded.fingerprint);
    expect(checked.renewal).toMatchObject({ method: 'uploaded', working: false });
    expect(checked.uploaded.fingerprint).toBe(uploaded.fingerprint);
    expect((await status('es')).renewal.notes[0]).toMatch(/^Certificado subido: lo renuevas tú/);
  });

  it('a new upload replaces it on the next deployment, and the first one’s files go', async () => {
    const next = await upload(leaf());
    const proxy = await deploy();
    expect((await served(domain())).fingerprint).toBe(next.fingerprint);
    const left = await onServer(['ls', uploadedCertificateDir(domain())]);
    expect(left.stdout.trim()).toBe(
      next.fingerprint.replaceAll(':', '').toLowerCase().slice(0, 16),
    );
    expect(proxy.serverSites[0]?.uploaded?.fingerprint).toBe(next.fingerprint);
  });

  it('removing the upload brings the CA’s certificate back and the files leave the server', async () => {
    const removed = await client.write(
      'DELETE',
      `/api/proxy-configurations/${id}/certificate/custom`,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const proxy = await deploy();
    // The record follows the removal: no upload left, certbot's certificate served.
    expect(proxy.serverSites.map((site) => site.uploaded ?? null)).toEqual([null]);
    expect(proxy.serverSites[0]?.certificate?.name).toBe(domain());
    expect((await served(domain())).issuer).toMatch(/Pebble/);
    const gone = await onServer(['test', '-e', uploadedCertificateDir(domain())]);
    expect(gone.code).not.toBe(0);
    const after = await waitUntil(
      status,
      (s) => s.renewal?.method !== 'uploaded' && s.check?.ok === true,
      'renewal not back to certbot',
    );
    expect(after.renewal.working).toBe(true);
    expect(after.uploaded).toBeNull();
  });
});

describe('an uploaded pair nginx refuses, through the engine', () => {
  it('fails at nginx -t, puts the site back and leaves no file of it', async () => {
    const domain = s1.domains[2]!;
    const log = captureLog();
    const ctx = engineContext(lab.status, log);
    ctx.settings.extraCaFile = trusted;
    const first = await runDeployment(deployInput(lab.status, s1, 'root', domain), ctx);
    expect(first.status, log.text()).toBe('completed');
    const before = await served(domain);
    const a = pki.leaf({
      names: [domain],
      from: new Date(Date.now() - DAY),
      to: new Date(Date.now() + DAY),
    });
    const b = pki.leaf({
      names: [domain],
      from: new Date(Date.now() - DAY),
      to: new Date(Date.now() + DAY),
    });
    const bad = await runDeployment(
      deployInput(lab.status, s1, 'root', domain, {
        uploadedCertificate: { chainPem: a.cert, privateKeyPem: b.key },
      }),
      ctx,
    );
    expect(bad.status).toBe('failed');
    if (bad.status !== 'failed') return;
    expect(bad.failure.code).toBe('nginx_config_invalid');
    expect(bad.failure.step).toBe('http-site');
    expect(bad.failure.message).toMatch(/key values mismatch|nginx -t/i);
    expect(await served(domain)).toEqual(before);
    const gone = await onServer(['test', '-e', uploadedCertificateDir(domain)]);
    expect(gone.code).not.toBe(0);
  });
});
