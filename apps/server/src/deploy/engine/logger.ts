import type { TLanguage } from '@portico/shared/api-error';
import type { TLogLevel } from '@portico/shared/proxy/schemas';
import type { TLogSink } from './types';

/** Long tool output is cut to its last lines: the cause is nearly always at the end. */
const MAX_LINE = 2000;

/**
 * Delivers log lines to the caller's sink in order, one at a time, even when the sink is async
 * and lines arrive from streaming callbacks that cannot wait. A failing sink never fails a
 * deployment.
 */
export class EngineLog {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: TLogSink,
    /** The language our own sentences are written in (see `say`). */
    readonly lang: TLanguage = 'en',
  ) {}

  write(level: TLogLevel, message: string): void {
    const text = message.length > MAX_LINE ? `${message.slice(0, MAX_LINE)}…` : message;
    this.queue = this.queue.then(
      () => Promise.resolve(this.sink(level, text)).catch(() => undefined),
      () => undefined,
    );
  }

  info(message: string): void {
    this.write('info', message);
  }

  success(message: string): void {
    this.write('success', message);
  }

  warning(message: string): void {
    this.write('warning', message);
  }

  error(message: string): void {
    this.write('error', message);
  }

  /** A line handler for `run(..., { onLine })`: each non-empty line of the tool, prefixed. */
  stream(prefix: string): (stream: 'stdout' | 'stderr', line: string) => void {
    return (_stream, line) => {
      if (line.trim()) this.info(`${prefix}: ${line}`);
    };
  }

  /** Resolves once every line written so far has reached the sink. */
  flush(): Promise<void> {
    return this.queue;
  }
}
