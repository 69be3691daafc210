import type { TLogLevel } from '@portico/shared/proxy/schemas';
import { format } from 'date-fns';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { formatMoment } from '@/lib/format-date';
import { type TLogText, useLogText } from '@/lib/log-text';
import { cn } from '@/lib/utils';
import { groupByRun, type TLogLine } from './logs';

const LEVEL_BADGE = {
  info: 'secondary',
  success: 'success',
  warning: 'warning',
  error: 'destructive',
} as const;

const LEVEL_CLASS: Record<TLogLevel, string> = {
  info: 'text-muted-foreground',
  success: 'text-success',
  warning: 'text-warning',
  error: 'text-destructive',
};

function clock(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : format(date, 'HH:mm:ss');
}

/** The deploy step's line: time of day, a level badge, the words (a terminal look). */
function RunLine({ line, words }: { line: TLogLine; words: TLogText }) {
  return (
    <li
      className={cn(
        'grid grid-cols-[auto_auto_minmax(0,1fr)] items-start gap-2',
        line.level === 'error' && 'text-red-300',
      )}
      data-level={line.level}
      data-testid="wizard-log-line"
    >
      <time dateTime={line.timestamp} className="text-zinc-400">
        {clock(line.timestamp)}
      </time>
      <Badge variant={LEVEL_BADGE[line.level]} className="px-1.5 py-0 text-[0.65rem] uppercase">
        {words.level(line.level)}
      </Badge>
      <span className="min-w-0 whitespace-pre-wrap [overflow-wrap:anywhere]">
        {words.line(line)}
      </span>
    </li>
  );
}

/**
 * The details page's line: level in upper case and the message, both in the screen's language
 * (lib/log-text), timestamp yyyy-MM-dd HH:mm:ss; errors destructive.
 */
export function LogLine({ line, words }: { line: TLogLine; words: TLogText }) {
  const error = line.level === 'error';
  return (
    <li
      className={cn(
        'grid gap-x-3 gap-y-0.5 px-3 py-1.5 font-mono text-xs sm:grid-cols-[5.5rem_minmax(0,1fr)_auto]',
        error && 'bg-destructive-soft text-destructive',
      )}
      data-testid="log-line"
      data-level={line.level}
    >
      <span className={cn('font-semibold', LEVEL_CLASS[line.level])}>
        {words.level(line.level)}
      </span>
      <span className="min-w-0 whitespace-pre-wrap [overflow-wrap:anywhere]">
        {words.line(line)}
      </span>
      <time
        className={cn('whitespace-nowrap', error ? 'text-destructive' : 'text-muted-foreground')}
        dateTime={line.timestamp}
      >
        {/* The time of day: the run's header gives the date, in the page's one format. */}
        {clock(line.timestamp)}
      </time>
    </li>
  );
}

/** Every run of the configuration, each under a header with its number and start. */
function Runs({ lines, words }: { lines: readonly TLogLine[]; words: TLogText }) {
  const { t, i18n } = useTranslation();
  return groupByRun(lines).map((run, index) => (
    <div key={`${run.deploymentId ?? 'none'}-${run.lines[0]?.id}`}>
      <p className="sticky top-0 border-b border-border bg-muted px-3 py-1 text-xs font-medium text-muted-foreground">
        {t('proxies.logs.run', {
          number: index + 1,
          date: formatMoment(run.lines[0]?.timestamp, i18n.language) ?? '',
        })}
      </p>
      <ol className="divide-y divide-border/60">
        {run.lines.map((line) => (
          <LogLine key={line.key} line={line} words={words} />
        ))}
      </ol>
    </div>
  ));
}

type TLogPanelProps = {
  lines: readonly TLogLine[];
  /**
   * 'run': the deploy step's panel (one run, dark, about 20rem, announced politely, always
   * follows the newest line). 'history': the details page's (every run grouped, about 24rem,
   * follows the newest line only while `follow`).
   */
  variant: 'run' | 'history';
  follow?: boolean;
  id?: string;
};

/** The one log panel of a deployment: a keyboard-scrollable region that keeps up with new lines. */
export function LogPanel({ lines, variant, follow = true, id }: TLogPanelProps) {
  const { t } = useTranslation();
  const words = useLogText();
  const ref = React.useRef<HTMLDivElement>(null);
  const count = lines.length;
  const lastKey = lines.at(-1)?.key;

  // A new line (the wizard's end line stays last while server lines arrive before it, so the
  // count is watched too) brings the newest into view.
  React.useEffect(() => {
    const el = ref.current;
    if (follow && count > 0 && lastKey !== undefined && el) el.scrollTop = el.scrollHeight;
  }, [follow, count, lastKey]);

  if (variant === 'history') {
    return (
      <section
        ref={ref}
        className="max-h-96 overflow-y-auto rounded-md border border-border bg-subtle"
        aria-label={t('proxies.logs.title')}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        data-testid="logs-panel"
      >
        <Runs lines={lines} words={words} />
      </section>
    );
  }
  return (
    <div
      ref={ref}
      id={id}
      role="log"
      aria-live="polite"
      aria-label={t('wizard.deploy.logsLabel')}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled by keyboard
      tabIndex={0}
      className="h-80 overflow-y-auto rounded-lg border border-border bg-zinc-950 p-3 font-mono text-xs text-zinc-100 outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="wizard-log-panel"
    >
      {lines.length === 0 ? (
        <p className="text-zinc-400">{t('wizard.deploy.noLogs')}</p>
      ) : (
        <ul className="grid gap-1">
          {lines.map((line) => (
            <RunLine key={line.key} line={line} words={words} />
          ))}
        </ul>
      )}
    </div>
  );
}
