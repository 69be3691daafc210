import { RefreshCwIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { LogPanel } from '@/lib/live-deployment/log-panel';
import type { TLogLine } from '@/lib/live-deployment/logs';
import { cn } from '@/lib/utils';

type TProps = {
  lines: readonly TLogLine[];
  loading: boolean;
  onRefresh: () => void;
  /** The socket is open and lines arrive as they are written. */
  live: boolean;
};

/** Deployment Logs card: refresh, spinner, empty text, then the log panel (every run). */
export function DeploymentLogs({ lines, loading, onRefresh, live }: TProps) {
  const { t } = useTranslation();
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
        {loading && lines.length === 0 ? (
          <div className="flex justify-center py-8">
            <Spinner label={t('proxies.logs.loading')} />
          </div>
        ) : lines.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground" data-testid="logs-empty">
            {t('proxies.logs.empty')}
          </p>
        ) : (
          // While lines stream in, the newest stays in view.
          <LogPanel variant="history" lines={lines} follow={live} />
        )}
      </CardContent>
    </Card>
  );
}
