import type { TLogLevel } from '@portico/shared/proxy/schemas';
import { RefreshCwIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { type TLogText, useLogText } from '@/lib/log-text';
import { cn } from '@/lib/utils';
import { formatDateTime } from '../lib/format';
import { groupByRun, type TLogEntry } from '../lib/logs';

const levelClass: Record<TLogLevel, string> = {
  info: 'text-muted-foreground',
  success: 'text-success',
  warning: 'text-warning',
  error: 'text-destructive',
};

/**
 * One line: level in upper case and the message, both in the screen's language (lib/log-text),
 * timestamp yyyy-MM-dd HH:mm:ss; errors destructive.
 */
export function LogLine({ entry, words }: { entry: TLogEntry; words: TLogText }) {
  const error = entry.level === 'error';
  return (
    <li
      className={cn(
        'grid gap-x-3 gap-y-0.5 px-3 py-1.5 font-mono text-xs sm:grid-cols-[5.5rem_minmax(0,1fr)_auto]',
        error && 'bg-destructive-soft text-destructive',
      )}
      data-testid="log-line"
      data-level={entry.level}
    >
      <span className={cn('font-semibold', levelClass[entry.level])}>
        {words.level(entry.level)}
      </span>
      <span className="min-w-0 whitespace-pre-wrap [overflow-wrap:anywhere]">
        {words.line(entry)}
      </span>
      <time
        className={cn('whitespace-nowrap', error ? 'text-destructive' : 'text-muted-foreground')}
        dateTime={entry.timestamp}
      >
        {formatDateTime(entry.timestamp) ?? entry.timestamp}
      </time>
    </li>
  );
}

type TProps = {
  entries: TLogEntry[];
  loading: boolean;
  onRefresh: () => void;
  /** The socket is open and lines arrive as they are written. */
  live: boolean;
};

/** Deployment Logs card: refresh, spinner, empty text, lines grouped by run, about 24rem tall. */
export function DeploymentLogs({ entries, loading, onRefresh, live }: TProps) {
  const { t } = useTranslation();
  const words = useLogText();
  const runs = groupByRun(entries);
  const panel = React.useRef<HTMLElement>(null);
  const lastId = entries.at(-1)?.id;
  // While lines stream in, keep the newest in view (as the wizard's panel does).
  React.useEffect(() => {
    if (!live || lastId === undefined || !panel.current) return;
    panel.current.scrollTop = panel.current.scrollHeight;
  }, [live, lastId]);
  return (
    <Card data-testid="deployment-logs">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <div className="grid gap-1">
          <CardTitle>{t('proxies.logs.title')}</CardTitle>
          <CardDescription>{t('proxies.logs.description')}</CardDescription>
        </div>
        <div className="flex items-center gap-2">
          {live ? (
            <Badge variant="success" data-testid="logs-live">
              <span className="size-2 animate-pulse rounded-full bg-current" aria-hidden="true" />
              {t('proxies.logs.live')}
            </Badge>
          ) : null}
          <Button
            size="sm"
            variant="outline"
            onClick={onRefresh}
            disabled={loading}
            data-testid="logs-refresh"
          >
            <RefreshCwIcon className={cn(loading && 'animate-spin')} aria-hidden="true" />
            {t('proxies.logs.refresh')}
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {loading && entries.length === 0 ? (
          <div className="flex justify-center py-8">
            <Spinner label={t('proxies.logs.loading')} />
          </div>
        ) : entries.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground" data-testid="logs-empty">
            {t('proxies.logs.empty')}
          </p>
        ) : (
          <section
            ref={panel}
            className="max-h-96 overflow-y-auto rounded-md border border-border bg-subtle"
            aria-label={t('proxies.logs.title')}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
            tabIndex={0}
            data-testid="logs-panel"
          >
            {runs.map((run, index) => (
              <div key={`${run.deploymentId ?? 'none'}-${run.entries[0]?.id}`}>
                <p className="sticky top-0 border-b border-border bg-muted px-3 py-1 text-xs font-medium text-muted-foreground">
                  {t('proxies.logs.run', {
                    number: index + 1,
                    date: formatDateTime(run.entries[0]?.timestamp) ?? '',
                  })}
                </p>
                <ol className="divide-y divide-border/60">
                  {run.entries.map((entry) => (
                    <LogLine key={entry.id} entry={entry} words={words} />
                  ))}
                </ol>
              </div>
            ))}
          </section>
        )}
      </CardContent>
    </Card>
  );
}
