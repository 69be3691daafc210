import type { TLanguage } from '@portico/shared/api-error';
import type {
  TAttentionReason,
  TCertificateStatus,
  TCertificateSummary,
  TKeyText,
} from '@portico/shared/certificates/schemas';
import { certificateState, daysLeft, expiryState } from '@portico/shared/certificates/state';
import { translate } from '@portico/shared/i18n/translate';
import type {
  TAlertedState,
  TCertificateStatusRow,
  TDeploymentRow,
  TProxyConfigurationRow,
} from '../../db/schema';

/** A check asked for longer ago than this lost its job (a restart): it no longer shows pending. */
const PENDING_FOR_MS = 2 * 60_000;

type TRow = Pick<TCertificateStatusRow, 'served' | 'lastCheck' | 'onServer'>;

/**
 * certbot holds a newer certificate than the one served: nginx was not reloaded after the
 * renewal. Judged only from a check made after the server's certificate was read, so the moment
 * between a renewal and the check after it does not count.
 */
export function nginxNotReloaded(row: TRow): boolean {
  const { served, onServer, lastCheck } = row;
  if (!served || !onServer || !lastCheck?.ok) return false;
  if (new Date(lastCheck.checkedAt) < new Date(onServer.readAt)) return false;
  return (
    served.fingerprint !== onServer.fingerprint &&
    new Date(served.notBefore) < new Date(onServer.notBefore)
  );
}

export function checkFailed(row: Pick<TRow, 'lastCheck'>): boolean {
  return row.lastCheck !== null && !row.lastCheck.ok;
}

/** What alerts compare against: the state each kind of trouble is in now. */
export function alertedStateOf(row: TRow, now: Date): TAlertedState {
  return {
    expiry: row.served ? expiryState(row.served, now) : 'fine',
    checkFailed: checkFailed(row),
    notReloaded: nginxNotReloaded(row),
  };
}

export function summaryOf(row: TRow | null, now: Date): TCertificateSummary | null {
  if (!row?.served && !row?.lastCheck) return null;
  const failed = checkFailed(row);
  return {
    state: row.served ? certificateState(row.served, failed, now) : 'danger',
    daysLeft: row.served ? daysLeft(row.served.notAfter, now) : null,
    notAfter: row.served?.notAfter ?? null,
    checkFailed: failed,
    nginxNotReloaded: nginxNotReloaded(row),
  };
}

/** A sentence of ours in the reader's language. */
const words = (lang: TLanguage, text: TKeyText | null) =>
  text ? translate(lang, text.key, text.params ?? {}) : null;

export function statusView(
  proxy: Pick<TProxyConfigurationRow, 'id' | 'domain'>,
  row: TCertificateStatusRow | null,
  lastAction: TDeploymentRow | undefined,
  history: Pick<TCertificateStatus, 'held' | 'recentlyIssued'>,
  now: Date,
  lang: TLanguage,
): Omit<TCertificateStatus, 'uploaded'> {
  const summary = summaryOf(row, now);
  const requested = row?.checkRequestedAt;
  const check = row?.lastCheck;
  const renewal = row?.renewal;
  return {
    configurationId: proxy.id,
    domain: proxy.domain,
    state: summary?.state ?? null,
    daysLeft: summary?.daysLeft ?? null,
    served: row?.served ?? null,
    check: check
      ? {
          ...check,
          problem: words(lang, check.problem),
          httpProblem: words(lang, check.httpProblem),
        }
      : null,
    checkPending: !!requested && now.getTime() - requested.getTime() < PENDING_FOR_MS,
    onServer: row?.onServer ?? null,
    nginxNotReloaded: summary?.nginxNotReloaded ?? false,
    renewal: renewal
      ? { ...renewal, notes: renewal.notes.map((note) => words(lang, note)!) }
      : null,
    recentlyIssued: history.recentlyIssued,
    held: history.held,
    lastAction:
      lastAction && (lastAction.trigger === 'renew' || lastAction.trigger === 'renew_test')
        ? {
            kind: lastAction.trigger,
            deploymentId: lastAction.id,
            status: lastAction.status,
            at: lastAction.createdAt.toISOString(),
            finishedAt: lastAction.finishedAt?.toISOString() ?? null,
          }
        : null,
  };
}

/** Why an administrator should look at this certificate; empty when nothing is wrong. */
export function attentionReasons(
  row: TCertificateStatusRow | null,
  lastAction: TDeploymentRow | undefined,
  now: Date,
): TAttentionReason[] {
  const reasons: TAttentionReason[] = [];
  const summary = summaryOf(row, now);
  if (summary?.checkFailed) reasons.push('checkFailed');
  else if (summary?.state === 'danger') reasons.push('danger');
  else if (summary?.state === 'warning') reasons.push('warning');
  if (summary?.nginxNotReloaded) reasons.push('nginxNotReloaded');
  // An upload renews by its owner's hand: its expiry, not the renewal, is what needs attention.
  if (row?.renewal && !row.renewal.working && row.renewal.method !== 'uploaded') {
    reasons.push('noRenewal');
  }
  if (lastAction?.status === 'failed') reasons.push('actionFailed');
  return reasons;
}
