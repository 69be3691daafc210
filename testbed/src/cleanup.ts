// Tearing a lab down: every process in its namespaces, the namespaces, the links, the files.
// Safe to run twice and on a half-built lab, since everything is found by name.
import { rmSync } from 'node:fs';
import { labNames } from './names';
import { ipBatch, listLinks, listNetns, netnsPids } from './network';
import { isAlive, run, runOk, sleep, waitFor } from './run';
import { isStale, labIdsOnDisk } from './state';

function killAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

async function stopProcesses(netnsList: string[]): Promise<void> {
  const pids = (await Promise.all(netnsList.map(netnsPids))).flat();
  if (pids.length === 0) return;
  killAll(pids, 'SIGTERM');
  const gone = () => pids.every((pid) => !isAlive(pid));
  try {
    await waitFor(gone, 3000, () => 'lab processes did not stop');
  } catch {
    const left = (await Promise.all(netnsList.map(netnsPids))).flat();
    killAll(left, 'SIGKILL');
    await waitFor(gone, 3000, () => `lab processes survived SIGKILL: ${left.join(' ')}`);
  }
}

/** The lab directory's tmpfs (state.ts `inMemory`) and anything mounted under it, deepest first. */
async function unmountLeftovers(dir: string): Promise<void> {
  const out = await runOk('findmnt', ['-rn', '-o', 'TARGET']);
  const targets = out
    .split('\n')
    .filter((t) => t === dir || t.startsWith(`${dir}/`))
    .reverse();
  for (const target of targets) await run('umount', ['-l', target]);
}

export async function teardownLab(id: number): Promise<void> {
  const names = labNames(id);
  const netnsList = await listNetns(names.prefix);
  await stopProcesses(netnsList);
  // One `ip` for all, as the lab was made (network.ts); -force goes on past a name already gone.
  const removals = [
    ...netnsList.map((netns) => ['netns', 'del', netns]),
    ...(await listLinks(names.prefix)).map((link) => ['link', 'del', link]),
  ];
  if (removals.length > 0) await ipBatch(removals, { force: true });
  await unmountLeftovers(names.dir);
  for (let attempt = 0; ; attempt++) {
    try {
      rmSync(names.dir, { recursive: true, force: true });
      break;
    } catch (error) {
      if (attempt > 20) throw error;
      await sleep(50);
    }
  }
}

/** Removes what crashed test runs left: labs whose owning process is gone. */
export async function sweepStaleLabs(): Promise<void> {
  for (const id of labIdsOnDisk()) {
    if (id !== 0 && isStale(id)) await teardownLab(id);
  }
  // Names first, then the directories: a lab being built makes its directory before its links.
  const names = [...(await listNetns('ptl')), ...(await listLinks('ptl'))];
  const onDisk = new Set(labIdsOnDisk());
  const orphanIds = new Set<number>();
  for (const name of names) {
    const id = Number(/^ptl(\d+)-/.exec(name)?.[1] ?? Number.NaN);
    if (Number.isInteger(id) && id !== 0 && !onDisk.has(id)) orphanIds.add(id);
  }
  for (const id of orphanIds) await teardownLab(id);
}
