// SIGTERM stops a real Portico process within its documented grace (docs/OPERATIONS.md), whatever
// the work in flight is doing: here a removal waits on a server whose session froze in the middle
// of a command (its command timeout is a minute away), and a log socket is open. Needs root (see
// apps/server/test/peers/test-sshd.ts).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSshd, type TLocalSshd } from '../../../test/peers/test-sshd';
import {
  HttpClient,
  startPortico,
  type TPorticoProcess,
} from '../../../test/support/lab-app-helpers';
import { createProxy, seedServerSite } from '../../../test/support/proxies-test-helpers';
import { withAppOnStore } from '../../../test/support/test-app';
import { newCredentials, TestClient } from '../../../test/support/test-client';
import { watch } from '../../../test/support/ws-test-helpers';

const PASSWORD = 'Right-pw-1';
/** The grace docs/OPERATIONS.md promises (server.ts SHUTDOWN_GRACE_MS). */
const GRACE_MS = 20_000;
/** Room for the process to be scheduled on a loaded machine after the grace. */
const SLACK_MS = 10_000;

let sshd: TLocalSshd;
let dataDir: string;
let portico: TPorticoProcess | undefined;

beforeAll(async () => {
  // Runs nothing on this machine: the root check answers by itself (and freezes the session
  // once asked to), every other command fails.
  sshd = await startLocalSshd({
    rootPassword: PASSWORD,
    forceScript: [
      'case "$SSH_ORIGINAL_COMMAND" in',
      '*PORTICO_UID*)',
      '  if [ -e "$PORTICO_SSHD_DIR/freeze" ]; then',
      '    echo "$PPID $$" > "$PORTICO_SSHD_DIR/frozen"; kill -STOP $PPID; exec sleep 600',
      '  fi',
      "  printf 'PORTICO_UID=0\\n' ;;",
      '*) exit 1 ;;',
      'esac',
      '',
    ].join('\n'),
  });
  dataDir = mkdtempSync(join(tmpdir(), 'portico-shutdown-'));
});

afterAll(async () => {
  if (portico && portico.child.exitCode === null) portico.child.kill('SIGKILL');
  const frozen = join(sshd?.dir ?? '', 'frozen');
  if (existsSync(frozen)) {
    for (const pid of readFileSync(frozen, 'utf8').trim().split(' ').map(Number)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  await sshd?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function until(check: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('SIGTERM', () => {
  it('ends the process within the grace while a removal waits on a frozen server', {
    timeout: 120_000,
  }, async () => {
    // The store first holds a configuration whose record says its site is on that server, so a
    // delete with removal goes there (as after a run that wrote the site).
    const env = { PORTICO_DATA_DIR: dataDir };
    const creds = newCredentials('term');
    const id = await withAppOnStore(env, async (t) => {
      const client = new TestClient(t.app, { headers: { 'accept-language': 'en' } });
      expect((await client.register(creds)).statusCode).toBe(201);
      const created = await createProxy(client, {
        serverIp: '127.0.0.1',
        sshPort: sshd.port,
        domain: `term-${process.pid}.example.com`,
        sshUser: 'root',
        sshPassword: PASSWORD,
      });
      await seedServerSite(t, created.id);
      return created.id;
    });

    portico = await startPortico({
      ...env,
      LOG_LEVEL: 'info',
      // The sshd of this test listens on 127.0.0.1.
      PORTICO_SSH_ALLOW_LOOPBACK: 'true',
    });
    const client = new HttpClient(portico.base);
    const login = { identifier: creds.username, password: creds.password };
    expect((await client.request('POST', '/api/login', login)).status).toBe(200);

    const socket = watch(portico.base, id, { cookie: client.cookieHeader(), origin: portico.base });
    expect(await socket.opened).toBe(true);
    writeFileSync(join(sshd.dir, 'freeze'), '');
    const removal = client
      .request('DELETE', `/api/proxy-configurations/${id}?removeFromServer=true`)
      .catch(() => undefined);
    await until(() => existsSync(join(sshd.dir, 'frozen')), 'the removal reached the server');

    const exited = new Promise<number | null>((resolve) =>
      portico!.child.once('exit', (code) => resolve(code)),
    );
    portico.child.kill('SIGTERM');
    const within = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), GRACE_MS + SLACK_MS)),
    ]);
    expect(within, portico.output()).toBe(true);
    expect(portico.output()).toContain('shutting down');
    socket.close();
    await removal;
  });
});
