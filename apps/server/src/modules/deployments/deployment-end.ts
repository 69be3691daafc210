import { setTimeout as pause } from 'node:timers/promises';
import type { TText } from '@portico/shared/i18n/text';
import type { TDeploymentsRepository } from './deployments.repository';

/** How often a waiter reads the run again (one row by its key). */
const POLL_MS = 1000;

/**
 * Resolves when the deployment ended (completed, or failed with why); rejects when `signal`
 * aborts, so the wait ends with its caller's deadline even if the run never does. A run that
 * vanished (its proxy deleted) counts as failed.
 */
export async function deploymentEnd(
  deployments: Pick<TDeploymentsRepository, 'findById'>,
  deploymentId: string,
  signal: AbortSignal,
  pollMs = POLL_MS,
): Promise<{ ok: true } | { ok: false; text: TText | null }> {
  for (;;) {
    signal.throwIfAborted();
    const row = await deployments.findById(deploymentId);
    if (!row) return { ok: false, text: null };
    if (row.status === 'completed') return { ok: true };
    if (row.status === 'failed') return { ok: false, text: row.errorText ?? null };
    await pause(pollMs, undefined, { signal });
  }
}
