import type { TProxyStatus } from '@portico/shared/proxy/schemas';

/** Catalog key of a status label; completed is shown as Active. */
export function statusLabelKey(status: TProxyStatus): string {
  return `proxies.status.${status}`;
}

export type TProxyAction = 'edit' | 'reset' | 'delete' | 'redeploy' | 'forgetHostKey';

type TActionFacts = {
  status: TProxyStatus;
  targetServer?: string | null;
} & TCredentialFacts;

type TCredentialFacts = { hasSshPassword?: boolean; sshAuth?: 'password' | 'server' | 'none' };

/** A deployment has something to log in with: its own password, or its saved server's. */
export function hasDeployCredential(proxy: TCredentialFacts): boolean {
  return proxy.hasSshPassword !== false || proxy.sshAuth === 'server';
}

/**
 * Catalog key of why the server would refuse `action` on this proxy now, or null when it would
 * take it: nothing changes a configuration while its deployment runs (409), and a redeploy needs
 * a destination and a saved SSH password (400).
 */
export function unavailableReasonKey(proxy: TActionFacts, action: TProxyAction): string | null {
  if (proxy.status === 'deploying') return 'proxies.unavailable.deploying';
  if (action !== 'redeploy') return null;
  if (!proxy.targetServer) return 'errors.deployNeedsTarget';
  if (!hasDeployCredential(proxy)) return 'errors.deployNeedsPassword';
  return null;
}
