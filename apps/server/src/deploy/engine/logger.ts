import type { TLanguage } from '@portico/shared/api-error';
import { renderText, type TText } from '@portico/shared/i18n/text';
import type { TLogLevel } from '@portico/shared/proxy/schemas';
import type { TLogSink } from './types';

/** Long tool output is cut to its last lines: the cause is nearly always at the end. */
const MAX_LINE = 2000;

function cut(text: string): string {
  return text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}…` : text;
}

/**
 * Delivers log lines to the caller's sink in order, one at a time, even when the sink is async
 * and lines arrive from streaming callbacks that cannot wait. A failing sink never fails a
 * deployment. Each line reaches the sink as words in the run's language and as the text they
 * came from, so the caller can store the text and show it in any reader's language.
 */
export class EngineLog {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: TLogSink,
    /** The language the words of each line are written in (the text is kept too). */
    readonly lang: TLanguage = 'en',
  ) {}

  write(level: TLogLevel, line: TText): void {
    // Verbatim output is cut; a sentence of ours carries its output inside and is cut as words.
    const text = typeof line === 'string' ? cut(line) : line;
    const message = cut(renderText(this.lang, text));
    this.queue = this.queue.then(
      () => Promise.resolve(this.sink(level, message, text)).catch(() => undefined),
      () => undefined,
    );
  }

  info(line: TText): void {
    this.write('info', line);
  }

  success(line: TText): void {
    this.write('success', line);
  }

  warning(line: TText): void {
    this.write('warning', line);
  }

  error(line: TText): void {
    this.write('error', line);
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
