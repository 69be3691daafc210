// Where a lab records itself, so that status, point and down work from another process, and a
// crashed run can be told apart from a live one.
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { LAB_ROOT, labNames, MAX_LAB_ID } from './names';
import { isAlive } from './run';
import type { TLabStatus } from './types';

/**
 * Who keeps a lab alive: a process (test runs), or nobody (a lab started by hand from the CLI,
 * on any number, which only `down` removes).
 */
export type TLabOwner = { pid: number; startTicks: string } | { cli: true };

export const BY_HAND: TLabOwner = { cli: true };

export function readStatus(id: number): TLabStatus | undefined {
  try {
    return JSON.parse(readFileSync(labNames(id).stateFile, 'utf8')) as TLabStatus;
  } catch {
    return undefined;
  }
}

export function writeStatus(status: TLabStatus): void {
  const file = labNames(status.id).stateFile;
  // Written whole then renamed: another process may be reading it.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(status, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

export function currentOwner(): TLabOwner {
  return { pid: process.pid, startTicks: processStartTicks(process.pid) ?? '' };
}

function ownerFile(id: number): string {
  return path.join(labNames(id).dir, 'owner.json');
}

export function writeOwner(id: number, owner: TLabOwner): void {
  writeFileSync(ownerFile(id), JSON.stringify(owner));
}

function readOwner(id: number): TLabOwner | undefined {
  try {
    return JSON.parse(readFileSync(ownerFile(id), 'utf8')) as TLabOwner;
  } catch {
    return undefined;
  }
}

/** The pid of the live process a lab belongs to, if any. */
export function liveOwnerPid(id: number): number | undefined {
  const owner = readOwner(id);
  if (!owner || 'cli' in owner || isStale(id)) return undefined;
  return owner.pid;
}

/** A lab is stale when its owning process is gone (or its pid was reused by another). */
export function isStale(id: number): boolean {
  const owner = readOwner(id);
  if (!owner) {
    // No owner yet: being created right now, unless that started long ago.
    try {
      return Date.now() - statSync(labNames(id).dir).mtimeMs > 60_000;
    } catch {
      return true;
    }
  }
  if ('cli' in owner) return false;
  return !isAlive(owner.pid) || processStartTicks(owner.pid) !== owner.startTicks;
}

/**
 * The lab's files (its servers' copy-on-write layers, Pebble's, DNS's) live in a tmpfs of its
 * own: a lab server's writes, its `fsync`s among them (a deploy syncs each site file it writes),
 * never wait on the machine's disk, which the test tiers beside it keep busy. Mounted before the
 * owner is written into it; teardown unmounts it with everything else under the directory.
 */
export function inMemory(dir: string): void {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'mode=0700', 'portico-lab', dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Reserves the first free lab number from 1 up for `owner`; mkdir is the atomic claim. */
export function claimLabId(owner: TLabOwner): number {
  mkdirSync(LAB_ROOT, { recursive: true, mode: 0o700 });
  for (let id = 1; id <= MAX_LAB_ID; id++) {
    try {
      mkdirSync(labNames(id).dir, { mode: 0o700 });
    } catch {
      continue;
    }
    inMemory(labNames(id).dir);
    writeOwner(id, owner);
    return id;
  }
  throw new Error('no free lab number: run `npm run testbed -- down --all`');
}

export function labIdsOnDisk(): number[] {
  try {
    return readdirSync(LAB_ROOT)
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((id) => id <= MAX_LAB_ID);
  } catch {
    return [];
  }
}
