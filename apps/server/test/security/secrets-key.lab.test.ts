// Secrets, private keys. The API takes no SSH key yet (only a password), so a key login
// is proven where it exists: the deployment engine, as the deploy job would call it, against a
// lab server. The key must appear in no log line, outcome or file the run leaves on the server,
// and a damaged key fails with a message that quotes none of it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../testbed/src/lab';
import { removeSite, runDeployment } from '../../src/deploy/engine';
import { captureLog, deployInput, engineContext, httpsGet } from '../support/lab-helpers';
import { findIn, needlesFor, scanDirectory, scanLabServer, type TNeedle } from './secrets-scan';

let lab: TLab;
let server: TLabServer;
let keyDir: string;
let privateKey: string;
let needles: TNeedle[];
/** The key's body lines after the first (which starts with the public header every key shares). */
let secretLines: string[];

beforeAll(async () => {
  lab = await startLab({ servers: 1 });
  server = lab.status.servers[0]!;
  keyDir = mkdtempSync(join(tmpdir(), 'portico-secrets-key-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(keyDir, 'id')]);
  privateKey = readFileSync(join(keyDir, 'id'), 'utf8');
  // Inside the lab server only (its /root is a private tmpfs).
  const installed = await lab.exec(
    server.name,
    ['sh', '-c', 'install -d -m 700 /root/.ssh && cat > /root/.ssh/authorized_keys'],
    readFileSync(join(keyDir, 'id.pub'), 'utf8'),
  );
  expect(installed.code, installed.stderr).toBe(0);
  secretLines = privateKey
    .split('\n')
    .filter((l) => /^[A-Za-z0-9+/=]{20,}$/.test(l))
    .slice(1);
  needles = [
    ...needlesFor('private key', privateKey),
    ...secretLines.map((line, i) => ({
      form: `private key body line ${i + 2}`,
      bytes: Buffer.from(line),
    })),
  ];
});

afterAll(async () => {
  await lab?.stop();
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
});

const domain = () => server.domains[0]!;

describe('an SSH private key through the deployment engine', () => {
  it('deploys and removes a site with key auth, and the key is in no line, outcome or server file', async () => {
    const log = captureLog();
    const input = deployInput(lab.status, server, 'root', domain(), { auth: { privateKey } });
    const outcome = await runDeployment(input, engineContext(lab.status, log));
    expect(outcome.status, log.text()).toBe('completed');
    expect((await httpsGet(lab.status, server.address, domain(), '/')).status).toBe(200);
    const removed = await removeSite(input, engineContext(lab.status, log));
    expect(removed).toEqual({ status: 'removed' });

    expect(log.lines.length).toBeGreaterThan(10);
    expect(findIn('engine log', log.text(), needles)).toEqual([]);
    expect(findIn('outcome', JSON.stringify([outcome, removed]), needles)).toEqual([]);
    const remote = await scanLabServer(lab, 1, needles, secretLines);
    expect(remote.files).toBeGreaterThan(10);
    expect(remote.hits).toEqual([]);
    expect(remote.tmpfsMatches).toBe('');
    // The scan finds the key where it is known to be: the test's own key file.
    expect(scanDirectory(keyDir, needles).hits.length).toBeGreaterThan(0);
  });

  it('a damaged key fails the run clearly, quoting none of it', async () => {
    const lines = privateKey.split('\n');
    // A character in the middle of the key body changed: still base64, no longer a valid key.
    const at = 3;
    const line = lines[at]!;
    lines[at] = `${line.slice(0, 10)}${line[10] === 'A' ? 'B' : 'A'}${line.slice(11)}`;
    const damaged = lines.join('\n');
    const log = captureLog();
    const outcome = await runDeployment(
      deployInput(lab.status, server, 'root', domain(), { auth: { privateKey: damaged } }),
      engineContext(lab.status, log),
    );
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure).toMatchObject({
      code: 'auth_failed',
      step: 'connect',
      message: expect.stringMatching(/^The private key cannot be read/),
    });
    const damagedNeedles = [...needles, ...needlesFor('damaged key', damaged)];
    expect(findIn('failure', JSON.stringify(outcome), damagedNeedles)).toEqual([]);
    expect(findIn('engine log', log.text(), damagedNeedles)).toEqual([]);
  });
});
