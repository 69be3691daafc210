// Faults the drills inject into a lab (testbed/): the lab's ACME CA stopped and started again,
// and the SSH session of a running deployment cut on the server side.
import { readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import type { TLab, TLabServer } from '../../../../testbed/src/lab';
import { ACME_MANAGEMENT_PORT, labNames } from '../../../../testbed/src/names';
import { netnsPids } from '../../../../testbed/src/network';
import { tcpOpen } from '../../../../testbed/src/probe';
import { isAlive, LAB_ENV, run, startDaemon, waitFor } from '../../../../testbed/src/run';

async function pebblePids(lab: TLab): Promise<number[]> {
  const pids = await netnsPids(labNames(lab.status.id).infraNetns);
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'pebble';
    } catch {
      return false;
    }
  });
}

/** Stops the lab's Pebble (by its pid) and waits until it is gone: the CA refuses connections. */
export async function stopPebble(lab: TLab): Promise<void> {
  const pids = await pebblePids(lab);
  if (pids.length === 0) throw new Error('the lab runs no Pebble');
  for (const pid of pids) process.kill(pid, 'SIGTERM');
  await waitFor(
    async () => pids.every((pid) => !isAlive(pid)),
    10_000,
    () => 'Pebble did not stop',
  );
}

/**
 * Starts Pebble again with the lab's own configuration, the way the testbed starts it, and
 * replaces the lab's root file with the new root (Pebble makes a new one at each start). The lab's
 * stop removes it with everything else in the lab's namespaces.
 */
export async function startPebble(lab: TLab): Promise<void> {
  const names = labNames(lab.status.id);
  const argv = ['pebble', '-config', join(names.infraDir, 'pebble.json')];
  argv.push('-dnsserver', `${names.infraAddress}:53`);
  startDaemon('ip', ['netns', 'exec', names.infraNetns, ...argv], {
    logFile: join(names.infraDir, 'pebble.log'),
    env: {
      ...LAB_ENV,
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_VA_ALWAYS_VALID: '0',
      PEBBLE_WFE_NONCEREJECT: '0',
    },
  });
  const ca = readFileSync(lab.status.caListenerCertPath);
  const url = `https://${names.infraAddress}:${ACME_MANAGEMENT_PORT}/roots/0`;
  let pem = '';
  await waitFor(
    async () => {
      pem = await new Promise<string>((resolve) => {
        https
          .get(url, { ca, agent: false }, (r) => {
            let body = '';
            r.on('data', (d) => {
              body += d;
            });
            r.on('end', () => resolve(r.statusCode === 200 ? body : ''));
          })
          .on('error', () => resolve(''));
      });
      return pem.includes('BEGIN CERTIFICATE');
    },
    10_000,
    () => 'Pebble did not come back',
  );
  writeFileSync(lab.status.caRootPath, pem);
}

// The server side of an SSH session is the `sshd: USER@notty` process (no terminal is asked
// for). Killing it drops the TCP connection at once, as a crashed sshd or a reboot would.
const CUT = `for i in $(seq 1 3000); do
  if eval "$CONDITION"; then
    pids=$(ps -eo pid=,args= | awk '$2 == "sshd:" && $3 ~ /@notty$/ { print $1 }')
    if [ -n "$pids" ]; then kill -KILL $pids; echo "cut $pids"; exit 0; fi
  fi
  sleep 0.02
done
exit 1`;

/**
 * Cuts every SSH session on `server` as soon as `condition` (a constant shell test written by
 * the drill) holds there; resolves with what was cut. Started before the run it cuts.
 */
export async function cutSshWhen(lab: TLab, server: TLabServer, condition: string) {
  const r = await lab.exec(server.name, ['env', `CONDITION=${condition}`, 'bash', '-c', CUT]);
  if (r.code !== 0) throw new Error(`the SSH cut never happened: ${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

/** Host pids of a lab server's sshd (daemon and sessions) and nginx processes. */
function servicePids(lab: TLab, server: TLabServer): number[] {
  const index = Number(server.name.slice(1));
  const netns = statSync(`/run/netns/${labNames(lab.status.id).server(index).netns}`).ino;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/ns/net`) !== `net:[${netns}]`) continue;
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'sshd' || comm === 'nginx') pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/**
 * Freezes a server's sshd and nginx (SIGSTOP from the host, within milliseconds): a run talking
 * to it hangs in the step it is in (its next SSH command, or its HTTPS check) until `thaw`.
 * Several runs can so be held in different steps and cut by one kill of Portico. ssh2's
 * keepalive gives up after 30 s, so the hold must be shorter.
 */
export function freeze(lab: TLab, server: TLabServer): void {
  for (const pid of servicePids(lab, server)) signal(pid, 'SIGSTOP');
}

export function thaw(lab: TLab, server: TLabServer): void {
  for (const pid of servicePids(lab, server)) signal(pid, 'SIGCONT');
}

/** A process that ended since it was listed (an SSH session closing, an old nginx worker) is skipped. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Takes the server's link to the lab bridge down or up again (its host side, a lab link). Up
 * resolves once the host reaches the server's sshd again: right after the link comes up, the
 * host's neighbour entry may still be the one that failed while it was down (EHOSTUNREACH).
 */
export async function setLink(lab: TLab, server: TLabServer, state: 'up' | 'down') {
  const link = labNames(lab.status.id).server(Number(server.name.slice(1))).link;
  const r = await run('ip', ['link', 'set', 'dev', link, state]);
  if (r.code !== 0) throw new Error(`ip link set ${link} ${state}: ${r.stderr}`);
  if (state === 'up') {
    await waitFor(
      () => tcpOpen(server.address, server.sshPort),
      20_000,
      () => `${server.name} unreachable after its link came up`,
    );
  }
}
