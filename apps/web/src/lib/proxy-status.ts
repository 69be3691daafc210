import type { TProxyStatus } from '@portico/shared/proxy/schemas';

/**
 * What a proxy status means to the person reading it, the one mapping home, details and admin
 * share: done (green), running (a deployment in progress: blue with a spinner, never red),
 * failed (red, and only a failure is red), waiting (yellow: saved, something left to do).
 */
type TStatusTone = 'done' | 'running' | 'failed' | 'waiting';

export function statusTone(status: TProxyStatus): TStatusTone {
  if (status === 'completed' || status === 'deployed') return 'done';
  if (status === 'deploying') return 'running';
  if (status === 'failed' || status === 'error') return 'failed';
  return 'waiting';
}

export const TONE_BADGE = {
  done: 'success',
  running: 'info',
  failed: 'destructive',
  waiting: 'warning',
} as const satisfies Record<TStatusTone, string>;

/** Catalog key of a status label; completed is shown as Active. */
export function statusLabelKey(status: TProxyStatus): string {
  return `proxies.status.${status}`;
}

export type TProxyAction = 'edit' | 'reset' | 'delete' | 'redeploy' | 'forgetHostKey';

type TActionFacts = {
  status: TProxyStatus;
  targetServer?: string | null;
  hasSshPassword?: boolean;
};

/**
 * Catalog key of why the server would refuse `action` on this proxy now, or null when it would
 * take it: nothing changes a configuration while its deployment runs (409), and a redeploy needs
 * a destination and a saved SSH password (400).
 */
export function unavailableReasonKey(proxy: TActionFacts, action: TProxyAction): string | null {
  if (proxy.status === 'deploying') return 'proxies.unavailable.deploying';
  if (action !== 'redeploy') return null;
  if (!proxy.targetServer) return 'errors.deployNeedsTarget';
  if (proxy.hasSshPassword === false) return 'errors.deployNeedsPassword';
  return null;
}
