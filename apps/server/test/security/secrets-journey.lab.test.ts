// Secrets: a full journey through the HTTP API of a real Portico process (PGlite data dir,
// LOG_LEVEL=trace, though nothing in Portico logs below info today) against a lab server, with a
// random SSH password that must then be found nowhere: not in an answer, a socket message, the
// app's output, a deployment log line, an admin screen, any byte of the data dir, or what the
// run left on the server. A ciphertext altered in the database fails a redeploy cleanly.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TWsMessage } from '@portico/shared/proxy/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../testbed/src/lab';
import { say } from '../../src/deploy/engine/messages';
import {
  HttpClient,
  labEnv,
  startPortico,
  stopPortico,
  type TPorticoProcess,
} from '../support/lab-app-helpers';
import { httpGet, httpsGet } from '../support/lab-helpers';
import {
  AUDITOR,
  createAdminWithCli,
  followRun,
  readAsAdmin,
  sampleServerProcesses,
  sendRefusedRequests,
  tamperStoredPassword,
} from './secrets-journey-steps';
import {
  findEverywhere,
  findIn,
  needlesFor,
  recordFetch,
  scanDirectory,
  scanLabServer,
  type TRecorded,
} from './secrets-scan';

let lab: TLab;
let server: TLabServer;
let scratch: string;
let dataDir: string;
let processTmp: string;
let portico: TPorticoProcess | undefined;
let client: HttpClient;
/** Output of every Portico process of this file (one per start). */
const outputs: string[] = [];
const recorded: TRecorded[] = [];
const socketMessages: TWsMessage[] = [];
let restoreFetch: () => void = () => {};

// A fresh random password per run: letters and digits around a core no file holds by chance,
// and characters that change under JSON, URL and base64 encoding.
const core = randomBytes(12).toString('hex');
const password = `Pw-${core}+/ &%"'\\é`;
const wrongPassword = `Wrong-${randomBytes(12).toString('hex')}`;
const needles = [
  ...needlesFor('SSH password', password, core),
  ...needlesFor('wrong SSH password', wrongPassword),
];

async function startApp() {
  portico = await startPortico({
    ...labEnv(lab.status),
    PORTICO_DATA_DIR: dataDir,
    LOG_LEVEL: 'trace',
    // Whatever the process writes to temporary files is scanned too.
    TMPDIR: processTmp,
  });
  const previous = client;
  client = new HttpClient(portico.base);
  for (const [k, v] of previous?.cookies ?? []) client.cookies.set(k, v);
}

async function stopApp() {
  await stopPortico(portico);
  if (portico) outputs.push(portico.output());
  portico = undefined;
}

beforeAll(async () => {
  lab = await startLab({ servers: 1, variants: { s1: ['existing-site'] } });
  server = lab.status.servers[0]!;
  // deploy logs in with the random password and gives it to sudo: both paths are exercised.
  const set = await lab.exec(server.name, ['chpasswd'], `deploy:${password}\n`);
  expect(set.code, set.stderr).toBe(0);
  scratch = mkdtempSync(join(tmpdir(), 'portico-secrets-'));
  // Portico creates its data dir itself, as on a first start.
  dataDir = join(scratch, 'data');
  processTmp = join(scratch, 'tmp');
  mkdirSync(processTmp);
  restoreFetch = recordFetch(recorded);
  await startApp();
});

afterAll(async () => {
  restoreFetch();
  await stopApp();
  await lab?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const domain = () => server.domains[0]!;
const editedDomain = () => server.domains[2]!;
const target = () => `http://${lab.status.upstream.address}:${lab.status.upstream.port}`;
/** The wizard's save: step one's fields, the destination, and whatever differs. */
const saveBody = (extra: Record<string, unknown>) => ({
  serverIp: server.address,
  sshUser: 'deploy',
  sshPort: 22,
  sshPassword: password,
  email: 'ops@example.com',
  targetServer: target(),
  ...extra,
});
let id: string;
let alteredCiphertext: string;

describe('a full journey with a random SSH password (real process, PGlite, trace logs)', () => {
  it('wizard, deploy, edit and redeploy all work', async () => {
    expect((await client.request('GET', '/api/auth/options')).status).toBe(200);
    const registered = await client.request('POST', '/api/register', {
      username: 'secrets',
      email: 'secrets@example.com',
      password: 'Account-pass-123',
    });
    expect(registered.status).toBe(201);
    const duplicate = await client.request('POST', '/api/check-duplicate-configuration', {
      domain: domain(),
      serverIp: server.address,
      sshUser: 'deploy',
    });
    expect(duplicate.json).toEqual({ isDuplicate: false, existingId: null });
    const dns = await client.request('POST', '/api/validate-dns', {
      domain: domain(),
      serverIp: server.address,
    });
    expect(dns.json.isValid).toBe(true);

    const ssh = { serverIp: server.address, username: 'deploy', port: 22 };
    const refused = await client.request('POST', '/api/test-ssh', {
      ...ssh,
      password: wrongPassword,
    });
    expect(refused.json).toMatchObject({ connected: false, error: expect.any(String) });
    const tested = await client.request('POST', '/api/test-ssh', { ...ssh, password });
    expect(tested.json).toMatchObject({
      connected: true,
      fingerprint: server.hostKeyFingerprint,
    });

    expect((await client.request('GET', '/api/destination-servers')).status).toBe(200);
    const saved = await client.request(
      'POST',
      '/api/proxy-configurations',
      saveBody({ domain: domain(), hostKeyFingerprint: tested.json.fingerprint }),
    );
    expect(saved.status).toBe(200);
    id = saved.json.id;
    expect((await client.request('GET', `/api/proxy-configurations/${id}`)).json).toMatchObject({
      hasSshPassword: true,
    });

    const sampler = sampleServerProcesses(lab, server.name);
    const first = await followRun(client, id, `/api/deploy/${id}`, socketMessages);
    const samples = await sampler.stop();
    expect(first.status, first.lines.join('\n')).toBe('completed');
    // No process on the server had the password in its arguments or environment; the samples
    // did see the run's own commands (sudo, as deploy gets root through it).
    expect(samples.flatMap((p, i) => findIn(`server processes #${i}`, p, needles))).toEqual([]);
    expect(samples.some((p) => /\bsudo\b/.test(p))).toBe(true);
    expect((await httpsGet(lab.status, server.address, domain(), '/')).status).toBe(200);

    const edited = await client.request('PUT', `/api/user/proxy-configurations/${id}`, {
      domain: editedDomain(),
      targetServer: target(),
      serverIp: server.address,
      sshUser: 'deploy',
      sshPort: 22,
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ domain: editedDomain(), changedSinceDeploy: true });
    const second = await followRun(
      client,
      id,
      `/api/proxy-configurations/${id}/redeploy`,
      socketMessages,
    );
    expect(second.status, second.lines.join('\n')).toBe('completed');
    expect((await httpsGet(lab.status, server.address, editedDomain(), '/')).status).toBe(200);

    // Resuming the wizard tests SSH with the stored password.
    const resumed = await client.request('POST', '/api/test-ssh', { ...ssh, configurationId: id });
    expect(resumed.json).toMatchObject({ connected: true });
    expect((await client.request('GET', '/api/user/proxy-configurations')).status).toBe(200);
  });

  it('refused requests holding the password answer 400 without quoting it', async () => {
    const statuses = await sendRefusedRequests(client, server.address, password, target());
    expect(statuses).toEqual([400, 400, 400, 400]);
    expect((await client.request('GET', '/api/user/proxy-configurations')).json).toHaveLength(1);
  });

  it('an altered ciphertext fails the redeploy with a clear line in the run language; nothing is stuck', async () => {
    await stopApp();
    alteredCiphertext = await tamperStoredPassword(dataDir, id);
    outputs.push(await createAdminWithCli(dataDir));
    await startApp();

    for (const language of ['en', 'es'] as const) {
      const run = await followRun(
        client,
        id,
        `/api/proxy-configurations/${id}/redeploy`,
        socketMessages,
        language,
      );
      expect(run.status).toBe('failed');
      // The catalog line in the language of the request (en and es differ).
      expect(run.lines.at(-1)).toBe(say(language, 'job.secretUndecryptable'));
    }
    const config = (await client.request('GET', `/api/proxy-configurations/${id}`)).json;
    expect(config.status).toBe('failed');
    // The wizard's resumed SSH test says the same, as an API error, not an internal error.
    const resumed = await client.request('POST', '/api/test-ssh', {
      serverIp: server.address,
      username: 'deploy',
      port: 22,
      configurationId: id,
    });
    expect(resumed.status).toBe(500);
    expect(resumed.json.message).toMatch(
      /^Stored secrets cannot be read: the SSH password saved for this configuration does not decrypt/,
    );
    // The server keeps serving what it served.
    expect((await httpsGet(lab.status, server.address, editedDomain(), '/')).status).toBe(200);
    expect(portico!.child.exitCode).toBeNull();
  });

  it('entering the password again recovers; delete removes the site and leaves the unrelated one', async () => {
    const saved = await client.request(
      'POST',
      '/api/proxy-configurations',
      saveBody({ configurationId: id, domain: editedDomain() }),
    );
    expect(saved.status).toBe(200);
    // The administrator's screens, after a password change and again after the delete.
    const admin = new HttpClient(client.base);
    const signedIn = await admin.request('POST', '/api/login', {
      identifier: AUDITOR.username,
      password: AUDITOR.password,
    });
    expect(signedIn.status).toBe(200);
    expect(await readAsAdmin(admin)).toEqual([200, 200, 200, 200, 200]);
    const logs = await client.request('GET', `/api/deployment-logs/${id}`);
    expect(logs.json.length).toBeGreaterThan(10);
    const config = (await client.request('GET', `/api/proxy-configurations/${id}`)).json;
    const site = ['test', '-e', String(config.nginxConfigPath)];
    expect((await lab.exec(server.name, site)).code).toBe(0);
    const deleted = await client.request(
      'DELETE',
      `/api/proxy-configurations/${id}?removeFromServer=true`,
    );
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ success: true, removedFromServer: true });
    expect((await lab.exec(server.name, site)).code).not.toBe(0);
    expect(await readAsAdmin(admin)).toEqual([200, 200, 200, 200, 200]);
    const trail = recorded.filter((r) => r.label.includes('/api/admin/audit-log')).at(-1)!.text;
    expect(trail).toContain('proxy.delete_with_removal');
    expect((await httpGet(server.address, `legacy.${server.name}.portico.test`)).body).toContain(
      `legacy site on ${server.name}`,
    );
  });

  it('nothing written on the server holds the password (overlay upper dirs, private tmpfs)', async () => {
    const scan = await scanLabServer(lab, 1, needles, [password, core]);
    expect(scan.hits).toEqual([]);
    expect(scan.files).toBeGreaterThan(10);
    expect(scan.tmpfsMatches).toBe('');
  });

  it('the password is in no answer, socket message, app log, deployment log or data file', async () => {
    await stopApp();
    const everything = findEverywhere(
      { recorded, socketMessages, outputs, dirs: [dataDir, processTmp] },
      needles,
    );
    expect(everything.hits).toEqual([]);

    // The check is only as strong as what it looked at: the scans see what was really there.
    const output = outputs.join('\n');
    expect(output).toContain('"url":"/api/test-ssh"');
    expect(output).toContain('"code":"secret_key_unreadable"');
    expect(recorded.length).toBeGreaterThan(20);
    expect(recorded.some((r) => r.label.includes('/api/deployment-logs/'))).toBe(true);
    const progress = socketMessages.filter((m) => m.type === 'deployment_progress');
    expect(progress.length).toBeGreaterThan(20);
    expect(everything.files).toBeGreaterThan(100);
    expect(scanDirectory(join(dataDir, 'db', 'pg_wal'), []).files).toBeGreaterThan(0);
    // Only the Portico user reads the data dir and the key beside the ciphertexts.
    const modes = ['', 'db', 'secret.key', 'session.secret'].map(
      (name) => statSync(join(dataDir, name)).mode & 0o777,
    );
    expect(modes).toEqual([0o700, 0o700, 0o600, 0o600]);
    const stored = [
      ...needlesFor('stored ciphertext', alteredCiphertext),
      ...needlesFor('a log line', 'Deployment complete'),
    ];
    const found = new Set(scanDirectory(dataDir, stored).hits.map((h) => h.form));
    expect(found).toContain('stored ciphertext (raw)');
    expect(found).toContain('a log line (raw)');
    expect(findIn('self-check', `x${password}x`, needles).length).toBeGreaterThan(0);
  });
});
