import type { TDeploymentLogEntry } from '@portico/shared/proxy/api';
import type { TLogLevel } from '@portico/shared/proxy/schemas';

/**
 * A line in the deploy step's log panel. Server lines carry the server's id (replays and polls
 * repeat them, so they are deduplicated by it); the wizard's own lines go before ('start') or
 * after ('end') the run's lines.
 */
export type TLogLine = {
  key: string;
  origin: 'start' | 'server' | 'end';
  id: number;
  deploymentId: string | null;
  level: TLogLevel;
  message: string;
  timestamp: string;
};

const ORIGIN_ORDER = { start: 0, server: 1, end: 2 } as const;

export function serverLine(entry: Omit<TDeploymentLogEntry, 'configurationId'>): TLogLine {
  return {
    key: `s${entry.id}`,
    origin: 'server',
    id: entry.id,
    deploymentId: entry.deploymentId,
    level: entry.level,
    message: entry.message,
    timestamp: entry.timestamp,
  };
}

let localSeq = 0;
export function localLine(
  origin: 'start' | 'end',
  level: TLogLevel,
  message: string,
  timestamp: string,
): TLogLine {
  localSeq += 1;
  return {
    key: `l${localSeq}`,
    origin,
    id: localSeq,
    deploymentId: null,
    level,
    message,
    timestamp,
  };
}

/** Adds lines not seen yet (by key) and keeps the panel in run order. */
export function mergeLogLines(existing: readonly TLogLine[], incoming: readonly TLogLine[]) {
  const seen = new Set(existing.map((l) => l.key));
  const added = incoming.filter((l) => {
    if (seen.has(l.key)) return false;
    seen.add(l.key);
    return true;
  });
  if (added.length === 0) return existing as TLogLine[];
  return [...existing, ...added].sort(
    (a, b) => ORIGIN_ORDER[a.origin] - ORIGIN_ORDER[b.origin] || a.id - b.id,
  );
}

/**
 * The polled log list holds every run of the configuration: keep the given run, or when it is not
 * known yet (a reload while deploying) the run of the newest line.
 */
export function currentRunEntries<T extends { id: number; deploymentId: string | null }>(
  entries: readonly T[],
  deploymentId: string | null,
): T[] {
  let run = deploymentId;
  if (run === null) {
    const newest = entries.reduce<T | null>((a, e) => (a === null || e.id > a.id ? e : a), null);
    run = newest?.deploymentId ?? null;
  }
  return entries.filter((e) => e.deploymentId === run);
}

/** Spec §9: one line per entry, `[LEVEL] ISO timestamp - message`. */
export function formatLogDownload(
  lines: readonly Pick<TLogLine, 'level' | 'timestamp' | 'message'>[],
) {
  return lines
    .map((l) => {
      const date = new Date(l.timestamp);
      const iso = Number.isNaN(date.getTime()) ? l.timestamp : date.toISOString();
      return `[${l.level.toUpperCase()}] ${iso} - ${l.message}`;
    })
    .join('\n');
}

export function logFileName(configurationId: string): string {
  return `deployment-logs-${configurationId}.txt`;
}
