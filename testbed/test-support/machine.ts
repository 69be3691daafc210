// Checks that the real machine is as it was: hashes of the trees a lab must never touch, and
// everything of a lab that could be left behind.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { labNames } from '../src/names';
import { listLinks, listNetns, netnsPids } from '../src/network';
import { isAlive, runOk } from '../src/run';

export const GUARDED_PATHS = [
  '/etc/nginx',
  '/etc/letsencrypt',
  '/etc/ssh',
  '/etc/passwd',
  '/etc/shadow',
  '/etc/group',
  '/etc/hosts',
  '/etc/hostname',
  '/etc/resolv.conf',
  '/var/www',
  '/home',
];

function digestTree(target: string, hash: ReturnType<typeof createHash>): void {
  const stat = lstatSync(target, { throwIfNoEntry: false });
  if (!stat) {
    hash.update(`${target} absent\n`);
    return;
  }
  hash.update(`${target} ${stat.mode} ${stat.uid} ${stat.gid}\n`);
  if (stat.isSymbolicLink()) hash.update(readlinkSync(target));
  else if (stat.isFile()) hash.update(readFileSync(target));
  else if (stat.isDirectory()) {
    for (const entry of readdirSync(target).sort()) digestTree(path.join(target, entry), hash);
  }
}

/** path → sha256 of everything under it (names, modes, owners, contents). */
export function snapshotGuardedPaths(): Record<string, string> {
  const result: Record<string, string> = {};
  for (const target of GUARDED_PATHS) {
    const hash = createHash('sha256');
    digestTree(target, hash);
    result[target] = hash.digest('hex');
  }
  return result;
}

/** Every pid in the lab's namespaces right now (to check later that all of them are gone). */
export async function labPids(id: number): Promise<number[]> {
  const netnsList = await listNetns(labNames(id).prefix);
  return (await Promise.all(netnsList.map(netnsPids))).flat();
}

export async function labLeftovers(id: number, pids: number[]) {
  const names = labNames(id);
  // Lab 1's directory must not match lab 12's: labs of other test files run at the same time.
  const ofLab = new RegExp(`${names.dir}(?=[/ ,:]|$)|/run/netns/${names.prefix}`);
  const mounts = (await runOk('findmnt', ['-rn', '-o', 'TARGET,SOURCE,OPTIONS']))
    .split('\n')
    .filter((line) => ofLab.test(line));
  return {
    netns: await listNetns(names.prefix),
    links: await listLinks(names.prefix),
    mounts,
    // Zombies are dead: this machine's PID 1 reaps orphans lazily.
    processes: pids.filter(isAlive),
    files: existsSync(names.dir) ? [names.dir] : [],
  };
}
