import { format } from 'date-fns';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { useLogText } from '@/lib/log-text';
import { cn } from '@/lib/utils';
import type { TLogLine } from '../state/logs';

const LEVEL_BADGE = {
  info: 'secondary',
  success: 'success',
  warning: 'warning',
  error: 'destructive',
} as const;

function time(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : format(date, 'HH:mm:ss');
}

/** The deploy step's log: about 20rem tall, announced politely, follows the newest line. */
export function LogPanel({ lines, id }: { lines: readonly TLogLine[]; id?: string }) {
  const { t } = useTranslation();
  const words = useLogText();
  const ref = React.useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow every new line
  React.useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines.length]);

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
            <li
              key={line.key}
              className={cn(
                'grid grid-cols-[auto_auto_minmax(0,1fr)] items-start gap-2',
                line.level === 'error' && 'text-red-300',
              )}
              data-level={line.level}
              data-testid="wizard-log-line"
            >
              <time dateTime={line.timestamp} className="text-zinc-400">
                {time(line.timestamp)}
              </time>
              <Badge
                variant={LEVEL_BADGE[line.level]}
                className="px-1.5 py-0 text-[0.65rem] uppercase"
              >
                {words.level(line.level)}
              </Badge>
              <span className="min-w-0 whitespace-pre-wrap [overflow-wrap:anywhere]">
                {words.line(line)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
