import type { TServerRun, TServerRunResult } from '@portico/shared/ssh-servers/schemas';
import * as React from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { useLogText } from '@/lib/log-text';
import { toastFailure } from '@/lib/toast-outcome';
import { useServersTexts } from '@/lib/use-group-texts';
import { isRunActive, readServerRunPage } from '../api/ssh-servers';
import { ActionReport } from './action-report';

const STATE_KEYS = {
  queued: 'queued',
  running: 'running',
  done: 'done',
  failed: 'failed',
  'timed-out': 'timedOut',
} as const;

type TMore = { runId: string; results: TServerRunResult[]; next: number | null };

const KIND_KEYS = { redeploy: 'redeployAll', 'check-certificates': 'checkCertificates' } as const;

/**
 * A per-server run as it goes: which action, its state, a bar and the counts, why it ended
 * early (its time limit, a restart), and each proxy's outcome (more pages on request).
 */
export function ServerRunProgress({ run }: { run: TServerRun }) {
  const { t } = useServersTexts();
  const words = useLogText();
  // Pages past the first, read on request (the poll keeps reading the first).
  const [more, setMore] = React.useState<TMore | null>(null);
  const [loading, setLoading] = React.useState(false);
  const mine = more?.runId === run.id ? more : null;
  const results = mine ? [...run.results, ...mine.results] : run.results;
  const next = mine ? mine.next : run.nextAfter;
  const handled = run.done + run.failed + run.refused;
  const loadMore = async (after: number) => {
    setLoading(true);
    try {
      const page = await readServerRunPage(run.sshServerId, run.id, after);
      setMore({
        runId: run.id,
        results: [...(mine?.results ?? []), ...page.results],
        next: page.nextAfter,
      });
    } catch (error) {
      toastFailure(error, t, t('servers.page.run.moreFailed'));
    } finally {
      setLoading(false);
    }
  };
  return (
    <div className="grid gap-3" data-testid="server-run" data-state={run.state}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="text-sm font-semibold">{t(`servers.page.${KIND_KEYS[run.kind]}`)}</h3>
        <span className="text-sm text-muted-foreground" data-testid="server-run-state">
          {t(`servers.page.run.state.${STATE_KEYS[run.state]}`)}
        </span>
      </div>
      <Progress
        value={run.state === 'queued' ? null : run.total === 0 ? 100 : (handled / run.total) * 100}
        aria-label={t('servers.page.run.progress')}
      />
      <p className="text-sm" data-testid="server-run-counts">
        {t('servers.page.run.counts', {
          handled,
          total: run.total,
          done: run.done,
          failed: run.failed,
          refused: run.refused,
        })}
      </p>
      {isRunActive(run) ? (
        <p className="text-sm text-muted-foreground">{t('servers.page.run.leaveHint')}</p>
      ) : null}
      {run.text ? (
        <Alert variant="destructive" data-testid="server-run-text">
          <AlertDescription>{words.text(run.text)}</AlertDescription>
        </Alert>
      ) : null}
      {results.length > 0 ? <ActionReport results={results} /> : null}
      {next !== null ? (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          disabled={loading}
          onClick={() => void loadMore(next)}
          data-testid="server-run-more"
        >
          {t('servers.page.run.more')}
        </Button>
      ) : null}
    </div>
  );
}
