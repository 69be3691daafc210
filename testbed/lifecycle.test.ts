// Starting and stopping labs from the outside: the CLI across processes, a crashed run swept by
// the next start, and the Vitest global setup other tiers use.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import setupLab from './global-setup';
import { teardownLab } from './src/cleanup';
import { labStatus, startLab } from './src/lab';
import { LAB_HOST_ADDRESS, labNames } from './src/names';
import { resolveA } from './src/probe';
import { isAlive, run, waitFor } from './src/run';
import { START_LOCK_FILE, withStartLock } from './src/start-lock';
import { labIdsOnDisk, liveOwnerPid } from './src/state';
import type { TLabStatus } from './src/types';
import { labLeftovers, labPids } from './test-support/machine';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Lab numbers far above those claimed automatically (from 1 up), so no live lab is hit.
const CLI_LAB = 249;
const HAND_LAB = 248;

function cliOn(lab: number, ...args: string[]) {
  // `--lab` first: after an `exec … --` everything is the command's own.
  const argv = ['--import', 'tsx', 'testbed/cli.ts', '--lab', String(lab), ...args];
  return run(process.execPath, argv, { cwd: REPO, env: process.env });
}

const cli = (...args: string[]) => cliOn(CLI_LAB, ...args);

const clean = { netns: [], links: [], mounts: [], processes: [], files: [] };

/** A process's command line, words joined by spaces; empty once it is gone. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Processes blocked waiting for a flock on the start lock, as /proc/locks lists them. */
function startLockWaiters(): string[] {
  const inode = `:${statSync(START_LOCK_FILE).ino}`;
  return readFileSync('/proc/locks', 'utf8')
    .split('\n')
    .filter(
      (line) => line.includes(' -> FLOCK ') && line.split(/\s+/).some((f) => f.endsWith(inode)),
    );
}

describe('lab lifecycle', () => {
  it('CLI: up, status, point and down work from separate processes; down twice is safe', async () => {
    const up = await cli('up', '--servers', '2', '--variant', 's2=nginx-stopped');
    expect(up.code, up.stderr).toBe(0);
    const status = JSON.parse((await cli('status')).stdout) as TLabStatus;
    expect(status.id).toBe(CLI_LAB);
    expect(status.servers.map((s) => [s.name, s.variants])).toEqual([
      ['s1', []],
      ['s2', ['nginx-stopped']],
    ]);
    const [s1, s2] = status.servers;

    expect((await cli('point', 'site1.s1.portico.test', 's2')).code).toBe(0);
    expect(await resolveA(status.dnsServer, 'site1.s1.portico.test')).toEqual([s2?.address]);
    expect((await cli('point', 'new.s1.portico.test', 's1')).code).toBe(0);
    expect(await resolveA(status.dnsServer, 'new.s1.portico.test')).toEqual([s1?.address]);
    const after = JSON.parse((await cli('status')).stdout) as TLabStatus;
    expect(after.domains['new.s1.portico.test']).toBe(s1?.address);
    expect(after.servers[1]?.domains).toContain('site1.s1.portico.test');
    const bad = await cli('point', 'bad domain;rm', 's1');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('not a valid domain');

    const pids = await labPids(CLI_LAB);
    expect((await cli('down')).code).toBe(0);
    expect((await cli('down')).code).toBe(0);
    expect(await labLeftovers(CLI_LAB, pids)).toEqual(clean);
  });

  it('a lab started by hand outlives its CLI process and the next test run, until down', async () => {
    try {
      const up = await cliOn(HAND_LAB, 'up', '--servers', '1');
      expect(up.code, up.stderr).toBe(0);
      const status = labStatus(HAND_LAB);
      const pids = await labPids(HAND_LAB);
      // What lives until down: each machine's init (and its unshare), the ACME CA, the DNS server
      // and the upstream. A daemon's starting parent (nginx and sshd fork and exit) may still be
      // among the pids just read, and goes on its own.
      const lasting = pids.filter((pid) =>
        /server-init\.sh|^pebble |^dnsmasq |upstream\.cjs/.test(commandOf(pid)),
      );
      expect(lasting.length).toBeGreaterThanOrEqual(4);

      // A test run starts: its start-up sweeps the labs whose owning process died.
      const next = await startLab({ servers: 1 });
      try {
        expect(next.status.id).not.toBe(HAND_LAB);
        expect(labStatus(HAND_LAB)).toEqual(status);
        expect(lasting.filter((pid) => !isAlive(pid))).toEqual([]);
        const hostname = await cliOn(HAND_LAB, 'exec', 's1', '--', 'hostname');
        expect(hostname.code, hostname.stderr).toBe(0);
        expect(hostname.stdout.trim()).toBe(status?.servers[0]?.hostname);
        const domain = status?.servers[0]?.domains[0] ?? '';
        expect(await resolveA(status?.dnsServer ?? '', domain)).toEqual([
          status?.servers[0]?.address,
        ]);
      } finally {
        await next.stop();
      }

      expect((await cliOn(HAND_LAB, 'down')).code).toBe(0);
      expect(await labLeftovers(HAND_LAB, pids)).toEqual(clean);
    } finally {
      await teardownLab(HAND_LAB);
    }
  });

  it('up removes what a crashed run left behind', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'testbed/test-support/hold-lab.ts'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (data: Buffer) => resolve(data.toString()));
      child.once('exit', (code) => reject(new Error(`fixture exited ${code}`)));
    });
    const crashedId = (JSON.parse(line) as { id: number }).id;
    const pids = await labPids(crashedId);
    expect(pids.length).toBeGreaterThan(0);
    const crashedPassword = labStatus(crashedId)?.servers[0]?.users[0]?.password;
    expect(crashedPassword).toBeTruthy();
    // The lab's files are in a tmpfs of its own (state.ts inMemory), which the crash leaves mounted.
    const fsOfDir = await run('findmnt', ['-rn', '-o', 'FSTYPE', '-M', labNames(crashedId).dir]);
    expect(fsOfDir.stdout.trim()).toBe('tmpfs');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const next = await startLab({ servers: 1 });
    try {
      expect((await labLeftovers(crashedId, pids)).processes).toEqual([]);
      // The new lab may reuse the freed number, but then everything of it is new.
      const now = labStatus(crashedId)?.servers[0]?.users[0]?.password;
      expect(now).not.toBe(crashedPassword);
    } finally {
      await next.stop();
    }
    expect((await labLeftovers(crashedId, pids)).mounts).toEqual([]);
  });

  it('a lab comes and goes without adding or removing an address in the root namespace', async () => {
    // What Chromium watches: any address added or removed in its namespace aborts every request
    // it has in flight (ERR_NETWORK_CHANGED), and the browser tier runs while labs start and stop.
    const rootAddresses = async () =>
      (await run('ip', ['-o', 'addr', 'show'])).stdout
        .split('\n')
        .map((line) => line.replace(/\\.*$/, '').replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .sort();
    const first = await startLab({ servers: 1 });
    await first.stop();
    // The host's one address toward the labs is there for good once a lab has started.
    const before = await rootAddresses();
    expect(
      before.some((a) => a.startsWith('1: lo ') && a.includes(` ${LAB_HOST_ADDRESS}/32 `)),
    ).toBe(true);
    const lab = await startLab({ servers: 2 });
    let during: string[];
    try {
      during = await rootAddresses();
      // Reached from the host all the same.
      const ssh = await run('bash', [
        '-c',
        'exec 3<>"/dev/tcp/$0/22"; head -c 4 <&3',
        lab.status.servers[0]!.address,
      ]);
      expect(ssh.stdout).toBe('SSH-');
    } finally {
      await lab.stop();
    }
    expect(during).toEqual(before);
    expect(await rootAddresses()).toEqual(before);
  });

  it('a start waits while another holds the start lock, claiming nothing, then starts', async () => {
    let release: (() => void) | undefined;
    const held = withStartLock(() => new Promise<void>((resolve) => (release = resolve)));
    await waitFor(
      () => release !== undefined,
      10_000,
      () => 'the start lock was not taken',
    );
    const next = startLab({ servers: 1 });
    // Labs of other test files come and go meanwhile: only this process's claims count.
    const whileHeld = await waitFor(
      () => startLockWaiters().length > 0,
      10_000,
      () => 'startLab did not wait for the start lock',
    ).then(
      () => ({ claimed: labIdsOnDisk().filter((id) => liveOwnerPid(id) === process.pid) }),
      (error: Error) => ({ error: error.message }),
    );
    release?.();
    await held;
    const lab = await next;
    try {
      expect(whileHeld).toEqual({ claimed: [] });
      expect(liveOwnerPid(lab.status.id)).toBe(process.pid);
      const hostname = await lab.exec('s1', ['hostname']);
      expect(hostname.stdout.trim()).toBe(lab.status.servers[0]?.hostname);
    } finally {
      await lab.stop();
    }
  });

  it('global setup provides a running lab and stops it at teardown', async () => {
    let provided: TLabStatus | undefined;
    const teardown = await setupLab({
      provide: (key: string, value: unknown) => {
        if (key === 'lab') provided = value as TLabStatus;
      },
    } as Parameters<typeof setupLab>[0]);
    expect(provided?.servers).toHaveLength(2);
    const pids = await labPids(provided?.id ?? -1);
    expect(pids.length).toBeGreaterThan(0);
    await teardown();
    expect(await labLeftovers(provided?.id ?? -1, pids)).toEqual(clean);
  });
});
