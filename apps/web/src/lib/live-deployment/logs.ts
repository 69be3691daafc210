import type { TText } from '@portico/shared/i18n/text';
import type { TDeploymentLogEntry } from '@portico/shared/proxy/api';
import type { TLogLevel } from '@portico/shared/proxy/schemas';

/**
 * A line of a log panel (the wizard's deploy step and the details page). Server lines carry the
 * server's id (the socket replays the run and polls repeat it, so they are deduplicated by it);
 * the wizard's own lines go before ('start') or after ('end') the run's lines.
 */
export type TLogLine = {
  key: string;
  origin: 'start' | 'server' | 'end';
  id: number;
  deploymentId: string | null;
  level: TLogLevel;
  /** The server's words (in the language of the request that fetched them). */
  message: string;
  /** What the line says, rendered in the screen's language when present (lib/log-text). */
  text: TText | null;
  timestamp: string;
};

const ORIGIN_ORDER = { start: 0, server: 1, end: 2 } as const;

/** A stored or streamed line (the socket may omit `text`: older servers). */
export function serverLine(
  entry: Omit<TDeploymentLogEntry, 'configurationId' | 'text'> & { text?: TText | null },
): TLogLine {
  return {
    key: `s${entry.id}`,
    origin: 'server',
    id: entry.id,
    deploymentId: entry.deploymentId,
    level: entry.level,
    message: entry.message,
    text: entry.text ?? null,
    timestamp: entry.timestamp,
  };
}

let localSeq = 0;
/** The wizard's own line: a text of the screen catalog, rendered in the current language. */
export function localLine(
  origin: 'start' | 'end',
  level: TLogLevel,
  text: TText,
  timestamp: string,
): TLogLine {
  localSeq += 1;
  return {
    key: `l${localSeq}`,
    origin,
    id: localSeq,
    deploymentId: null,
    level,
    message: '',
    text,
    timestamp,
  };
}

/** Adds lines not seen yet (by key) and keeps the panel in run order (server lines by id). */
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

type TLogRun = { deploymentId: string | null; lines: TLogLine[] };

/** Consecutive lines of the same deployment form one run, so each run can be told apart. */
export function groupByRun(lines: readonly TLogLine[]): TLogRun[] {
  const runs: TLogRun[] = [];
  for (const line of lines) {
    const last = runs[runs.length - 1];
    if (last && last.deploymentId === line.deploymentId) last.lines.push(line);
    else runs.push({ deploymentId: line.deploymentId, lines: [line] });
  }
  return runs;
}

export function logFileName(configurationId: string): string {
  return `deployment-logs-${configurationId}.txt`;
}
