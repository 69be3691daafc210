import {
  CircleAlertIcon,
  CircleCheckIcon,
  CircleDashedIcon,
  Loader2Icon,
  TriangleAlertIcon,
} from 'lucide-react';
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { ExpiryBadge } from '@/components/ui/expiry-badge';
import { formatMoment } from '@/lib/format-date';
import { useLogText } from '@/lib/log-text';
import type { TProxySummary, TSummaryTone } from '@/lib/proxy-summary';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { cn } from '@/lib/utils';

/** The one badge colour of each tone (lib/proxy-summary.ts says what each means). */
export const TONE_VARIANT = {
  danger: 'destructive',
  warning: 'warning',
  fine: 'success',
  neutral: 'outline',
  running: 'info',
} as const satisfies Record<TSummaryTone, string>;

const TONE_ICON = {
  danger: CircleAlertIcon,
  warning: TriangleAlertIcon,
  fine: CircleCheckIcon,
  neutral: CircleDashedIcon,
  running: Loader2Icon,
} as const;

/** The proxy's one word, in the colour of what it asks of the reader. */
export function SummaryBadge({ summary }: { summary: TProxySummary }) {
  const { t } = useCertificateTexts();
  const Icon = TONE_ICON[summary.tone];
  return (
    <Badge
      variant={TONE_VARIANT[summary.tone]}
      className="whitespace-normal"
      data-testid="summary-state"
      data-state={summary.state}
      data-tone={summary.tone}
    >
      <Icon
        className={cn(
          'shrink-0',
          summary.tone === 'running' && 'animate-spin motion-reduce:animate-none',
        )}
        aria-hidden="true"
      />
      {t(`certificate.summary.state.${summary.state}`)}
    </Badge>
  );
}

/** The badges: the proxy's state and, while its HTTPS site is served, its certificate. */
export function SummaryBadges({ summary }: { summary: TProxySummary }) {
  const certificate = summary.certificate;
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <SummaryBadge summary={summary} />
      {certificate ? (
        <ExpiryBadge
          state={certificate.tone}
          daysLeft={certificate.daysLeft}
          checkFailed={certificate.kind === 'checkFailed'}
          notReloaded={certificate.notReloaded}
        />
      ) : null}
    </div>
  );
}

/** The stored reason in the screen's language (the server's sentences load when first needed). */
function Reason({ failure }: { failure: NonNullable<TProxySummary['failure']> }) {
  const words = useLogText();
  return <>{words.line(failure)}</>;
}

/** Why the last run failed, in the screen's language, with its step and date. */
function Failure({
  failure,
  clamp,
}: {
  failure: NonNullable<TProxySummary['failure']>;
  clamp: boolean;
}) {
  const { t, i18n } = useCertificateTexts();
  const step = t(`proxies.steps.${failure.step}`, { defaultValue: failure.step });
  return (
    <div className="grid gap-0.5 text-sm" data-testid="summary-failure" data-step={failure.step}>
      <p className="font-medium text-destructive">
        {t('certificate.summary.failedAt', {
          step,
          date: formatMoment(failure.at, i18n.language) ?? '',
        })}
      </p>
      <p
        className={cn(
          'whitespace-pre-wrap text-destructive [overflow-wrap:anywhere]',
          clamp && 'line-clamp-3',
        )}
        data-testid="summary-reason"
      >
        {/* Until the server's sentences are in, the reason as the API wrote it for this language. */}
        <React.Suspense fallback={failure.message}>
          <Reason failure={failure} />
        </React.Suspense>
      </p>
    </div>
  );
}

/** The sentence of what is served; an adopted site's says Portico did not write it. */
function servingKey(summary: TProxySummary): string {
  if (summary.state === 'adopted')
    return summary.serving === 'https' ? 'adoptedHttps' : 'adoptedHttp';
  return summary.serving ?? 'none';
}

/**
 * A proxy's summary, first on every screen that shows the proxy (docs/PRODUCT.md#one-summary-per-proxy):
 * what the server serves, what failed last and why, what to do next. `compact` (a table row)
 * keeps the badges and the reason, cut to three lines.
 */
export function ProxySummary({
  summary,
  compact = false,
  saysChanges = false,
  className,
}: {
  summary: TProxySummary;
  compact?: boolean;
  /** The screen says "changed since the last deployment" itself, beside its Redeploy button. */
  saysChanges?: boolean;
  className?: string;
}) {
  const { t } = useCertificateTexts();
  const next = summary.next === 'applyChanges' && saysChanges ? null : summary.next;
  return (
    <div
      className={cn('grid min-w-0 gap-2', className)}
      data-testid="proxy-summary"
      data-state={summary.state}
    >
      <SummaryBadges summary={summary} />
      {compact ? null : (
        <p
          className="text-sm"
          data-testid="summary-serving"
          data-serving={summary.serving ?? 'none'}
        >
          {t(`certificate.summary.serving.${servingKey(summary)}`)}
        </p>
      )}
      {summary.failure ? <Failure failure={summary.failure} clamp={compact} /> : null}
      {next && !compact ? (
        <p className="text-sm text-muted-foreground" data-testid="summary-next" data-next={next}>
          {next === 'applyChanges'
            ? t('proxies.changedSinceDeploy')
            : t(`certificate.summary.next.${next}`)}
        </p>
      ) : null}
    </div>
  );
}
