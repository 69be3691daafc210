import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import type { TFunction } from 'i18next';

/** Catalog key of a status label; completed is shown as Active. */
export function statusLabelKey(status: TProxyStatus): string {
  return `proxies.status.${status}`;
}

export type TProxyAction = 'edit' | 'reset' | 'delete' | 'redeploy' | 'forgetHostKey';

type TActionFacts = {
  status: TProxyStatus;
  targetServer?: string | null;
  /** Adopted as it is: its hand-written file, which Portico never writes. */
  adoption?: { file: string };
} & TCredentialFacts;

type TCredentialFacts = { hasSshPassword?: boolean; sshAuth?: 'password' | 'server' | 'none' };

/** A deployment has something to log in with: its own password, or its saved server's. */
export function hasDeployCredential(proxy: TCredentialFacts): boolean {
  return proxy.hasSshPassword !== false || proxy.sshAuth === 'server';
}

/**
 * Not offered on a site adopted as it is: the server refuses an edit or a deployment of it (409
 * proxy_adopted), and a reset would only mark "pending" a site no run of Portico's serves.
 */
const REFUSED_WHEN_ADOPTED: ReadonlySet<TProxyAction> = new Set(['edit', 'reset', 'redeploy']);

/**
 * Catalog key of why the server would refuse `action` on this proxy now, or null when it would
 * take it: nothing changes a configuration while its deployment runs (409), an adopted site is
 * never deployed, edited or reset from Portico (409), and a redeploy needs a destination and a
 * saved SSH password (400).
 */
export function unavailableReasonKey(proxy: TActionFacts, action: TProxyAction): string | null {
  if (proxy.status === 'deploying') return 'proxies.unavailable.deploying';
  if (proxy.adoption && REFUSED_WHEN_ADOPTED.has(action)) return 'errors.proxyAdopted';
  if (action !== 'redeploy') return null;
  if (!proxy.targetServer) return 'errors.deployNeedsTarget';
  if (!hasDeployCredential(proxy)) return 'errors.deployNeedsPassword';
  return null;
}

/** The reason of unavailableReasonKey in the screen's language, or null when `action` may run. */
export function unavailableReason(
  t: TFunction,
  proxy: TActionFacts,
  action: TProxyAction,
): string | null {
  const key = unavailableReasonKey(proxy, action);
  return key ? t(key, { file: proxy.adoption?.file ?? '' }) : null;
}
