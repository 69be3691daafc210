import type { TCertificateStatus, TCertificateSummary } from '@portico/shared/certificates/schemas';
import type { TCertificateState } from '@portico/shared/certificates/state';
import type { TLastFailure, TProxyConfiguration } from '@portico/shared/proxy/api';
import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import { servingOfProxy, type TServing } from '@portico/shared/proxy/server-record';

/**
 * What a colour means, on every badge of a proxy (docs/PRODUCT.md#one-summary-per-proxy):
 * danger (red) needs action now, warning (amber) soon, fine (green) nothing to do, neutral
 * (grey) unknown or not applicable, running (blue, with a spinner) a run in progress.
 */
export type TSummaryTone = 'danger' | 'warning' | 'fine' | 'neutral' | 'running';

/** The one word for a proxy: its badge on the card, the details, the wizard and the admin list. */
export type TSummaryState =
  | 'deploying'
  | 'live'
  | 'failedServing'
  | 'failed'
  | 'pendingServing'
  | 'pending'
  | 'adopted';

/** What to do next, one sentence; null when nothing is to be done. */
export type TNextStep =
  | 'wait'
  | 'fixAndRedeploy'
  | 'redeployOrDelete'
  | 'continue'
  | 'applyChanges'
  | 'checkHttps'
  | 'renewNow'
  | 'testRenewal'
  | 'renewOnServer'
  | null;

/** The certificate, said only of a proxy whose HTTPS site the server serves. */
export type TSummaryCertificate = {
  /** The certificate's state (shared/certificates/state.ts), which is its tone. */
  tone: TCertificateState;
  /** What the badge says: the last live check failed, or how long it is valid. */
  kind: 'checkFailed' | 'expired' | 'expiresToday' | 'expiresIn';
  daysLeft: number | null;
  notReloaded: boolean;
};

export type TProxySummary = {
  state: TSummaryState;
  tone: TSummaryTone;
  /** What the server serves for the proxy now, by the record of what Portico put there. */
  serving: TServing;
  /** The last run failed: why (null once a run succeeded). */
  failure: Pick<TLastFailure, 'step' | 'message' | 'text' | 'at'> | null;
  certificate: TSummaryCertificate | null;
  next: TNextStep;
};

/** Everything the summary is made of; the admin list's rows carry the same facts. */
export type TSummaryFacts = {
  status: TProxyStatus;
  serving: TServing;
  lastFailure: TProxySummary['failure'];
  changedSinceDeploy?: boolean;
  /**
   * Adopted as it is (docs/PRODUCT.md#sites-on-this-server): served by a file Portico did not
   * write and never deploys, so neither "pending" nor a deployment's next step applies.
   */
  adopted?: boolean;
  /** The watch's last word on the served certificate, when there is one. */
  certificate?: TCertificateSummary | null;
};

function certificateOf(summary: TCertificateSummary): TSummaryCertificate {
  const { daysLeft } = summary;
  const kind =
    summary.checkFailed || daysLeft === null
      ? 'checkFailed'
      : daysLeft < 0
        ? 'expired'
        : daysLeft === 0
          ? 'expiresToday'
          : 'expiresIn';
  return {
    tone: summary.state,
    kind,
    daysLeft,
    notReloaded: summary.nginxNotReloaded,
  };
}

function stateOf(status: TProxyStatus, serving: TServing, adopted: boolean): TSummaryState {
  if (status === 'deploying') return 'deploying';
  if (adopted) return 'adopted';
  if (status === 'completed' || status === 'deployed') return serving ? 'live' : 'pending';
  if (status === 'failed' || status === 'error') return serving ? 'failedServing' : 'failed';
  return serving ? 'pendingServing' : 'pending';
}

const STATE_TONE: Record<TSummaryState, TSummaryTone> = {
  deploying: 'running',
  live: 'fine',
  failedServing: 'danger',
  failed: 'danger',
  pendingServing: 'warning',
  pending: 'neutral',
  adopted: 'fine',
};

function nextOf(
  state: TSummaryState,
  certificate: TSummaryCertificate | null,
  changed: boolean,
): TNextStep {
  if (state === 'deploying') return 'wait';
  if (state === 'failed' || state === 'failedServing') return 'fixAndRedeploy';
  if (state === 'pendingServing') return 'redeployOrDelete';
  if (state === 'pending') return 'continue';
  if (changed && state !== 'adopted') return 'applyChanges';
  if (certificate?.kind === 'checkFailed') return 'checkHttps';
  // Portico renews nothing on an adopted site: whoever wrote it renews it on the server.
  if (state === 'adopted')
    return certificate && certificate.tone !== 'fine' ? 'renewOnServer' : null;
  if (certificate?.tone === 'danger') return 'renewNow';
  if (certificate?.tone === 'warning') return 'testRenewal';
  return null;
}

/**
 * One account of a proxy: what the server serves, what failed last and why, what to do next.
 * Computed here only, so every screen says the same. A certificate is spoken of only while the
 * server serves the HTTPS site; a site that still serves is never just "pending".
 */
export function proxySummary(facts: TSummaryFacts): TProxySummary {
  const state = stateOf(facts.status, facts.serving, facts.adopted ?? false);
  const certificate =
    facts.serving === 'https' && facts.certificate && state !== 'deploying'
      ? certificateOf(facts.certificate)
      : null;
  return {
    state,
    tone: STATE_TONE[state],
    serving: facts.serving,
    failure: state === 'deploying' ? null : facts.lastFailure,
    certificate,
    next: nextOf(state, certificate, facts.changedSinceDeploy ?? false),
  };
}

/** The facts of a proxy as the API answers it, with the watch's summary of its certificate. */
export function summaryOfProxy(
  proxy: Pick<
    TProxyConfiguration,
    'status' | 'serverSites' | 'sslConfigured' | 'lastFailure' | 'changedSinceDeploy' | 'adoption'
  >,
  certificate?: TCertificateSummary | null,
): TProxySummary {
  const adopted = proxy.adoption !== undefined;
  return proxySummary({
    status: proxy.status,
    serving: servingOfProxy({ ...proxy, adopted }),
    lastFailure: proxy.lastFailure,
    changedSinceDeploy: proxy.changedSinceDeploy,
    adopted,
    certificate,
  });
}

/** The list's summary of a certificate, from the details page's fuller status. */
export function certificateSummaryOf(
  status: TCertificateStatus | undefined,
): TCertificateSummary | null {
  if (!status?.state) return null;
  return {
    state: status.state,
    daysLeft: status.daysLeft,
    notAfter: status.served?.notAfter ?? null,
    checkFailed: status.check ? !status.check.ok : false,
    nginxNotReloaded: status.nginxNotReloaded,
  };
}
