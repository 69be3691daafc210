import type { TServerActionResult } from '@portico/shared/ssh-servers/schemas';
import { CheckCircle2Icon, XCircleIcon } from 'lucide-react';
import { Link } from 'wouter';
import { useLogText } from '@/lib/log-text';
import { useServersTexts } from '@/lib/use-group-texts';

/**
 * What a per-server action did to each proxy (it goes on with the next either way): the
 * domain, linked to its details, and done or why not, in the reader's language.
 */
export function ActionReport({ results }: { results: readonly TServerActionResult[] }) {
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
          >
            {result.ok ? (
              <CheckCircle2Icon
                className="mt-0.5 size-4 shrink-0 text-success"
                aria-hidden="true"
              />
            ) : (
              <XCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
            )}
            <div className="grid min-w-0 gap-0.5">
              <Link
                href={`/proxy-details/${encodeURIComponent(result.id)}`}
                className="font-medium break-all underline-offset-4 hover:underline"
              >
                {result.domain}
              </Link>
              <span className={result.ok ? 'text-muted-foreground' : 'text-destructive'}>
                {result.text ? words.text(result.text) : t('servers.page.reportOk')}
              </span>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
