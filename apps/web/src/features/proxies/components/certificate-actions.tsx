import type { TCertificateAction, TCertificateStatus } from '@portico/shared/certificates/schemas';
import { coveringWildcard } from '@portico/shared/certificates/wildcard-use';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { FlaskConicalIcon, RefreshCwIcon, ScanSearchIcon } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { BusyButton } from '@/components/ui/busy-button';
import { formatDateMinutes } from '@/lib/format-date';
import { toastOutcome } from '@/lib/toast-outcome';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { useWildcardChoices } from '@/lib/wildcard-use';
import { useCertificateAction, useCheckCertificate } from '../api/certificate';

/** Why the actions are unavailable right now, or null when they may run. */
function unavailable(
  proxy: TProxyConfiguration,
  live: boolean,
  status: TCertificateStatus | undefined,
  wildcard: string | null,
): 'notDeployed' | 'busy' | 'uploaded' | 'wildcard' | 'adopted' | 'adoptedNoCertificate' | null {
  // An adopted site's certificate is renewed by whoever wrote it: the server refuses both runs
  // (and no deployment of Portico's will put one live, so "deploy it first" would mislead).
  if (proxy.adoption) return live && proxy.sslConfigured ? 'adopted' : 'adoptedNoCertificate';
  if (!live || !proxy.sslConfigured) return 'notDeployed';
  // certbot holds nothing for an upload: its owner renews it by uploading the next.
  if (status?.uploaded) return 'uploaded';
  // Nor for another proxy's wildcard: its holder's renewals renew it.
  if (wildcard) return 'wildcard';
  const action = status?.lastAction?.status;
  if (proxy.status === 'deploying' || action === 'queued' || action === 'running') return 'busy';
  return null;
}

/**
 * Check now (the live check, from Portico), Test renewal and Renew now (on the server, as runs
 * whose output streams into the log below). `onRunStarted` makes the page follow the log.
 */
export function CertificateActions({
  proxy,
  live,
  status,
  onRunStarted,
}: {
  proxy: TProxyConfiguration;
  live: boolean;
  status: TCertificateStatus | undefined;
  onRunStarted: () => void;
}) {
  const { t } = useCertificateTexts();
  const check = useCheckCertificate(proxy.id);
  const action = useCertificateAction(proxy.id);
  const wildcards = useWildcardChoices(proxy.id, coveringWildcard(proxy.domain) !== undefined);
  const wildcard = wildcards.data?.current?.domain ?? null;
  const why = unavailable(proxy, live, status, wildcard);
  const checking = check.isPending || !!status?.checkPending;

  const run = async (kind: TCertificateAction) => {
    const name = t(`certificate.section.actionKind.${kind}`);
    const started = await toastOutcome(() => action.mutateAsync(kind), t, {
      success: t('certificate.section.actionStarted', { action: name }),
      failure: t('certificate.section.actionFailedToast', { action: name }),
    });
    if (started) onRunStarted();
  };
  // A limit reached (Portico's runs counted by the server): the action waits, and says until when.
  const held = (kind: TCertificateAction) => status?.held[kind] ?? null;
  const heldTexts = (['renew', 'renew_test'] as const).flatMap((kind) => {
    const hold = held(kind);
    return hold
      ? [
          {
            kind,
            text: t(`certificate.section.held.${hold.limit}`, {
              max: hold.max,
              at: formatDateMinutes(hold.retryAt),
            }),
          },
        ]
      : [];
  });
  const running = (kind: TCertificateAction) =>
    (action.isPending && action.variables === kind) ||
    (status?.lastAction?.kind === kind &&
      (status.lastAction.status === 'queued' || status.lastAction.status === 'running'));

  return (
    <div className="grid gap-2" data-testid="certificate-actions">
      <h3 className="text-sm font-medium">{t('certificate.section.actions')}</h3>
      <div className="flex flex-wrap gap-2">
        <BusyButton
          busy={checking}
          icon={<ScanSearchIcon aria-hidden="true" />}
          variant="outline"
          size="sm"
          disabled={why === 'notDeployed' || why === 'adoptedNoCertificate'}
          onClick={() =>
            void toastOutcome(() => check.mutateAsync(), t, {
              success: t('certificate.section.checkQueued'),
              failure: t('certificate.section.checkFailedToast'),
            })
          }
          data-testid="action-check-now"
        >
          {t('certificate.section.checkNow')}
        </BusyButton>
        <BusyButton
          busy={running('renew_test')}
          icon={<FlaskConicalIcon aria-hidden="true" />}
          variant="outline"
          size="sm"
          disabled={why !== null || action.isPending || !!held('renew_test')}
          onClick={() => void run('renew_test')}
          title={t('certificate.section.testRenewalHint')}
          data-testid="action-test-renewal"
        >
          {t('certificate.section.testRenewal')}
        </BusyButton>
        <ConfirmDialog
          testId="renew-now"
          title={t('certificate.section.renewConfirm.title')}
          description={t('certificate.section.renewConfirm.description', {
            domain: proxy.domain,
          })}
          confirm={t('certificate.section.renewConfirm.confirm')}
          onConfirm={() => void run('renew')}
          trigger={
            <BusyButton
              busy={running('renew')}
              icon={<RefreshCwIcon aria-hidden="true" />}
              variant="outline"
              size="sm"
              disabled={why !== null || action.isPending || !!held('renew')}
              title={t('certificate.section.renewNowHint')}
              data-testid="action-renew-now"
            >
              {t('certificate.section.renewNow')}
            </BusyButton>
          }
        />
      </div>
      <p className="text-xs text-muted-foreground" data-testid="certificate-actions-hint">
        {t(why ? `certificate.section.${why}` : 'certificate.section.actionsHint', { wildcard })}
      </p>
      {heldTexts.map(({ kind, text }) => (
        <p
          key={kind}
          className="text-xs font-medium text-warning"
          data-testid="certificate-action-held"
          data-action={kind}
        >
          {text}
        </p>
      ))}
    </div>
  );
}
