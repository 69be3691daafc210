import { DEFAULT_LANGUAGE, type TLanguage } from '@portico/shared/api-error';
import { renderText } from '@portico/shared/i18n/text';
import type { TServerSite } from '@portico/shared/proxy/api';
import type { TProxyConfigurationRow } from '../../db/schema';
import type {
  TEngineContext,
  TEngineSettings,
  TRemoveInput,
  TRemoveOutcome,
  TSshAuth,
} from '../../deploy/engine';
import { deadlineFailure } from '../../deploy/engine';
import { JOB_TIMING } from '../../jobs/queues';
import { withDeadline } from '../../lib/deadline';
import { credentialRefusalError, type TServerCredentials } from '../ssh-servers/server-credentials';
import type { TProxiesRepository } from './proxies.repository';
import { proxyErrors } from './proxy-errors';
import { recordSite, toServerSite } from './server-sites';

/** What a removal needs: part of the proxies service's own dependencies. */
export interface TSiteRemovalDeps {
  repository: TProxiesRepository;
  secrets: TServerCredentials;
  settings: () => TEngineSettings;
  removeSite: (input: TRemoveInput, ctx: TEngineContext) => Promise<TRemoveOutcome>;
  /** A removal's time limit and its grace to stop (JOB_TIMING; tests shorten them). */
  timing?: { abandonGraceMs: number; removeDeadlineMs?: number };
}

// Failures meaning "the server could not be reached", for which the UI offers Portico-only delete.
const UNREACHABLE = new Set([
  'tcp_connect',
  'timeout',
  'auth_failed',
  'host_key_mismatch',
  'connection_lost',
  'sudo_refused',
]);

/**
 * The credential for the server a recorded site is on, or the refusal as the removal's error:
 * a secret goes only to the target it was entered for (the configuration may point elsewhere now).
 */
export async function credentialForSite(
  credentials: TServerCredentials,
  row: TProxyConfigurationRow,
  site: TServerSite,
): Promise<TSshAuth> {
  const where = { serverIp: site.serverIp, sshPort: site.sshPort, sshUser: site.sshUser };
  const credential = await credentials.credentialFor(row, where);
  if ('refused' in credential) throw credentialRefusalError(credential.refused, 'remove');
  return credential.auth;
}

/**
 * Removal of one site the record says is on a server (delete with removal): where the record
 * says it was written, with the host key seen there, even if the configuration was edited
 * since; the record follows what the removal did, so a removal that fails half-way leaves it true.
 */
export function createSiteRemoval(deps: TSiteRemovalDeps) {
  const { repository, secrets } = deps;
  return async function removeRecordedSite(
    row: TProxyConfigurationRow,
    site: TServerSite,
    removeCertificate: boolean,
    language?: TLanguage,
  ) {
    // The site lives where the record says it was written, even if the row was edited since;
    // the saved password goes there only if it was entered for that very server, port and user.
    const where = { serverIp: site.serverIp, sshPort: site.sshPort, sshUser: site.sshUser };
    const auth = await credentialForSite(secrets, row, site);
    const pinned = await secrets.hostKeyFor(
      row,
      where,
      site.hostKeyFingerprint ?? row.hostKeyFingerprint,
    );
    const limit = deps.timing?.removeDeadlineMs ?? JOB_TIMING.removeDeadlineMs;
    const timeLimit = {
      ms: limit,
      graceMs: deps.timing?.abandonGraceMs ?? JOB_TIMING.abandonGraceMs,
    };
    const outcome = await withDeadline<TRemoveOutcome>(
      timeLimit,
      (signal) =>
        deps.removeSite(
          {
            domain: site.domain,
            ...where,
            auth,
            expectedFingerprint: pinned,
            removeCertificate,
          },
          {
            // The failure reason ends up in the caller's error message, so it speaks their language.
            settings: { ...deps.settings(), language },
            log: () => {},
            signal,
            onSite: async (state, fingerprint) => {
              await recordSite(repository, row.id, toServerSite(where, state, fingerprint));
            },
          },
        ),
      // The engine did not stop within its grace: what it did is recorded as far as it got.
      () => {
        const failure = deadlineFailure('remove', limit);
        const message = renderText(language ?? DEFAULT_LANGUAGE, failure.text);
        return { status: 'failed', failure: { ...failure, message } };
      },
    );
    if (outcome.status === 'failed') {
      const { code, message } = outcome.failure;
      throw UNREACHABLE.has(code)
        ? proxyErrors.serverUnreachable(message)
        : proxyErrors.removeFailed(message);
    }
  };
}
