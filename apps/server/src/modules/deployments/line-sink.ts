import type { TText } from '@portico/shared/i18n/text';
import type { TLogLevel } from '@portico/shared/proxy/schemas';
import type { TLine, TRunLog } from './run-log';

type TPending = { level: TLogLevel; line: TLine; at: Date; stored: () => void };

export type TLineSink = ReturnType<typeof createLineSink>;

/**
 * A run's log as its engine says it. Lines are stored in the order said; those said while the
 * previous write was under way go in one insert (a deploy says 50–80 lines, often a step's
 * facts or a tool's output at once), which is most of what a run costs the database. Once
 * closed (the run is over), lines are dropped: an engine that was given up on must not add to
 * a finished log. A line that cannot be stored is logged here and never fails the run.
 */
export function createLineSink(
  deps: { runLog: TRunLog; log: { warn(obj: unknown, msg: string): void } },
  configurationId: string,
  deploymentId: string,
) {
  let pending: TPending[] = [];
  let draining: Promise<void> | undefined;
  let closed = false;

  async function drain(): Promise<void> {
    // One turn first: the lines of a burst arrive a microtask apart and then share the insert.
    await new Promise((resolve) => setImmediate(resolve));
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      await deps.runLog
        .writeMany(configurationId, deploymentId, batch)
        .catch((error) => deps.log.warn({ err: error }, 'deployment log lines lost'));
      for (const line of batch) line.stored();
    }
    draining = undefined;
  }

  /** Resolves once the line is stored (or given up on). */
  function log(level: TLogLevel, message: string, text: TText): Promise<void> {
    if (closed) return Promise.resolve();
    return new Promise<void>((stored) => {
      pending.push({ level, line: { message, text }, at: new Date(), stored });
      draining ??= drain();
    });
  }

  return {
    log,
    /** The engine's sink: it goes on at once, the line is stored in its turn. */
    say(level: TLogLevel, message: string, text: TText): void {
      void log(level, message, text);
    },
    /** Resolves once every line said so far is stored. */
    flush: (): Promise<void> => draining ?? Promise.resolve(),
    close() {
      closed = true;
    },
  };
}
