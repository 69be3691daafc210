// How the two lab tiers (apps/server's `lab` project and `testbed`) schedule their files. Each
// file starts a lab of its own (its own number, namespaces, subnet, Pebble and DNS), so files do
// not share servers and can run side by side; most of a lab file's time is waiting on sshd,
// nginx, certbot and Pebble, which two files at once overlap.

/** Lab files at once when PORTICO_LAB_WORKERS does not say (1 takes them one at a time). */
export const DEFAULT_LAB_WORKERS = 2;
const MAX_LAB_WORKERS = 4;

/** PORTICO_LAB_WORKERS, checked: a whole number from 1 to 4. */
export function labWorkers(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_LAB_WORKERS;
  const workers = Number(value);
  if (!/^\d+$/.test(value) || workers < 1 || workers > MAX_LAB_WORKERS) {
    throw new Error(`PORTICO_LAB_WORKERS must be a whole number from 1 to ${MAX_LAB_WORKERS}`);
  }
  return workers;
}

/**
 * The scheduling both lab tiers' configs spread into `test`, for PORTICO_LAB_WORKERS's value. Vitest runs projects of one
 * `sequence.groupOrder` in one pool, which must have one worker count: the lab tiers take group
 * 1, after the other projects (3 workers) when a run includes both.
 */
export function labTierScheduling(value: string | undefined) {
  const workers = labWorkers(value);
  return { fileParallelism: workers > 1, maxWorkers: workers, sequence: { groupOrder: 1 } };
}
