import type { TText } from '@portico/shared/i18n/text';
import type { TServerActionResult } from '@portico/shared/ssh-servers/schemas';
import { CheckCircle2Icon, MinusCircleIcon, XCircleIcon } from 'lucide-react';
import { Link } from 'wouter';
import { useLogText } from '@/lib/log-text';
import { useServersTexts } from '@/lib/use-group-texts';

/** One proxy's line: done, failed (with why) or refused (e.g. an adopted site, with why). */
export type TReportRow = {
  id: string;
  domain: string;
  outcome: 'done' | 'failed' | 'refused';
  text: TText | null;
};

/** A synchronous action's result as a report row. */
export const reportRow = (result: TServerActionResult): TReportRow => ({
  ...result,
  outcome: result.ok ? 'done' : 'failed',
});

const ICONS = {
  done: <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />,
  failed: <XCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />,
  refused: (
    <MinusCircleIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
  ),
};

/**
 * What a per-server action did to each proxy (it goes on with the next either way): the
 * domain, linked to its details, and done, failed or refused with why, in the reader's language.
 */
export function ActionReport({ results }: { results: readonly TReportRow[] }) {
  const { t } = useServersTexts();
  const words = useLogText();
  return (
    <div className="grid gap-2" data-testid="action-report">
      <h3 className="text-sm font-semibold">{t('servers.page.report')}</h3>
      <ul className="grid gap-2">
        {results.map((result) => (
          <li
            key={result.id}
            className="flex items-start gap-2 text-sm"
            data-testid="action-report-row"
            data-outcome={result.outcome}
          >
            {ICONS[result.outcome]}
            <div className="grid min-w-0 gap-0.5">
              <Link
                href={`/proxy-details/${encodeURIComponent(result.id)}`}
                className="font-medium break-all underline-offset-4 hover:underline"
              >
                {result.domain}
              </Link>
              <span
                className={
                  result.outcome === 'failed' ? 'text-destructive' : 'text-muted-foreground'
                }
              >
                {t(`servers.page.outcome.${result.outcome}`)}
                {result.text ? `: ${words.text(result.text)}` : ''}
              </span>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
