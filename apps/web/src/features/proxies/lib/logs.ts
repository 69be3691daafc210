import type { TDeploymentLogEntry, TWsMessage } from '@portico/shared/proxy/api';

export type TLogEntry = Omit<TDeploymentLogEntry, 'configurationId'>;
export type TLogRun = { deploymentId: string | null; entries: TLogEntry[] };

/** Stored lines and live ones together: one line per id (the socket replays), oldest first. */
export function mergeLogs(...lists: readonly (readonly TLogEntry[])[]): TLogEntry[] {
  const byId = new Map<number, TLogEntry>();
  for (const list of lists) for (const entry of list) byId.set(entry.id, entry);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Consecutive lines of the same deployment form one run, so each run can be told apart. */
export function groupByRun(entries: readonly TLogEntry[]): TLogRun[] {
  const runs: TLogRun[] = [];
  for (const entry of entries) {
    const last = runs[runs.length - 1];
    if (last && last.deploymentId === entry.deploymentId) last.entries.push(entry);
    else runs.push({ deploymentId: entry.deploymentId, entries: [entry] });
  }
  return runs;
}

/** A socket progress message as a log line. */
export function entryFromMessage(
  message: Extract<TWsMessage, { type: 'deployment_progress' }>,
): TLogEntry {
  const { id, deploymentId, level, message: words, text, timestamp } = message.data;
  return { id, deploymentId, level, message: words, text: text ?? null, timestamp };
}
