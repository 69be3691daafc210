import type { TLanguage } from '@portico/shared/api-error';
import { renderText } from '@portico/shared/i18n/text';
import type { TConvertPlan, TConvertResult } from '@portico/shared/proxy/api';
import type { TProxyConfigurationRow } from '../../db/schema';
import type {
  TConvertInput,
  TConvertOutcome,
  TConvertPlanOutcome,
  TEngineContext,
  TEngineSettings,
} from '../../deploy/engine';
import { deadlineFailure } from '../../deploy/engine';
import { KeyedAppError } from '../../lib/app-error';
import { withDeadline } from '../../lib/deadline';
import { credentialRefusalError } from '../ssh-servers/server-credentials';
import type { TActor, TProxiesServiceDeps, TProxyWrites } from './proxies.service';
import { recordSite, toServerSite } from './server-sites';

/** A conversion reads a few files, writes two or three and asks the site twice. */
export const CONVERT_DEADLINE_MS = 90_000;
const GRACE_MS = 5_000;

export interface TProxyConversionDeps
  extends Pick<TProxiesServiceDeps, 'repository' | 'secrets' | 'settings' | 'transaction'> {
  load: (id: string, actor: TActor) => Promise<TProxyConfigurationRow>;
  planConversion: (input: TConvertInput, ctx: TEngineContext) => Promise<TConvertPlanOutcome>;
  convertSite: (
    input: TConvertInput & { planFingerprint: string },
    ctx: TEngineContext,
  ) => Promise<TConvertOutcome>;
}

const notAdopted = () => new KeyedAppError('not_adopted', 409, 'errors.proxyNotAdopted');
const convertFailed = (code: string, reason: string) =>
  new KeyedAppError(
    code === 'server_changed' ? 'server_changed' : 'convert_failed',
    code === 'server_changed' ? 409 : 502,
    'errors.convertFailed',
    { reason },
  );

/**
 * "Convert to Portico's configuration" (docs/PRODUCT.md#sites-on-this-server): the plan of an
 * adopted site's rewrite, then the rewrite (deploy/engine/convert-site.ts), after which the
 * proxy is an ordinary Portico proxy. The request waits for it: it is one short errand.
 */
export function createProxyConversion(deps: TProxyConversionDeps) {
  async function engineInput(actor: TActor, id: string) {
    const row = await deps.load(id, actor);
    if (row.origin !== 'adopted' || !row.adoptedFile || !row.adoptedSha256 || !row.targetServer) {
      throw notAdopted();
    }
    const credential = await deps.secrets.credentialFor(row, row);
    if ('refused' in credential) throw credentialRefusalError(credential.refused, 'deploy');
    const input: TConvertInput = {
      domain: row.domain,
      serverIp: row.serverIp,
      sshPort: row.sshPort,
      sshUser: row.sshUser,
      auth: credential.auth,
      expectedFingerprint: row.hostKeyFingerprint ?? undefined,
      targetServer: row.targetServer,
      options: row.options,
      adoptedFile: row.adoptedFile,
      adoptedSha256: row.adoptedSha256,
    };
    return { row, input };
  }

  const settingsIn = (language: TLanguage): TEngineSettings => ({ ...deps.settings(), language });
  const timeLimit = { ms: CONVERT_DEADLINE_MS, graceMs: GRACE_MS };
  const late = () => ({
    status: 'failed' as const,
    failure: { ...deadlineFailure('convert', CONVERT_DEADLINE_MS), message: '' },
  });

  /**
   * A conversion that failed after its plan is audited too, with what became of the server:
   * nothing written, written and put back, or the time limit reached first.
   */
  async function auditFailure(
    actor: TActor,
    row: TProxyConfigurationRow,
    outcome: Extract<TConvertOutcome, { status: 'failed' }>,
  ) {
    const timedOut = outcome.failure.code === 'timeout';
    await deps.transaction(async (tx: TProxyWrites) => {
      await tx.audit.record(actor, {
        action: 'proxy.convert_failed',
        targetType: 'proxy_configuration',
        targetId: row.id,
        targetOwnerId: row.userId,
        changes: [
          {
            field: 'outcome',
            before: null,
            after: outcome.rolledBack ? 'rolled_back' : timedOut ? 'timed_out' : 'refused',
          },
        ],
      });
    });
  }

  return {
    async plan(actor: TActor, id: string, language: TLanguage): Promise<TConvertPlan> {
      const { row, input } = await engineInput(actor, id);
      const outcome = await withDeadline<TConvertPlanOutcome>(
        timeLimit,
        (signal) =>
          deps.planConversion(input, { settings: settingsIn(language), log: () => {}, signal }),
        late,
      );
      if (outcome.status === 'failed') {
        throw convertFailed(outcome.failure.code, renderText(language, outcome.failure.text));
      }
      return { ...outcome.plan, targetServer: row.targetServer!, adoptedFile: row.adoptedFile! };
    },

    async convert(
      actor: TActor,
      id: string,
      fingerprint: string,
      language: TLanguage,
    ): Promise<TConvertResult> {
      const { row, input } = await engineInput(actor, id);
      const where = { serverIp: row.serverIp, sshPort: row.sshPort, sshUser: row.sshUser };
      const log: string[] = [];
      const outcome = await withDeadline<TConvertOutcome>(
        timeLimit,
        (signal) =>
          deps.convertSite(
            { ...input, planFingerprint: fingerprint },
            {
              settings: settingsIn(language),
              log: (_level, message) => {
                log.push(message);
              },
              signal,
              onSite: async (state, hostKey) => {
                await recordSite(deps.repository, row.id, toServerSite(where, state, hostKey));
              },
            },
          ),
        late,
      );
      if (outcome.status === 'failed') {
        await auditFailure(actor, row, outcome);
        throw convertFailed(outcome.failure.code, renderText(language, outcome.failure.text));
      }
      await deps.transaction(async (tx: TProxyWrites) => {
        await tx.repository.update(row.id, {
          origin: 'portico',
          adoptedFile: null,
          adoptedSha256: null,
          adoptedFileText: null,
          adoptedChangedAt: null,
          adoptedMissingAt: null,
          status: 'completed',
          nginxConfigPath: outcome.nginxConfigPath,
          sslConfigured: outcome.https,
          hostKeyFingerprint: outcome.hostKeyFingerprint,
          lastDeployedAt: new Date(),
          deployedSnapshot: {
            domain: row.domain,
            targetServer: row.targetServer!,
            serverIp: row.serverIp,
            sshPort: row.sshPort,
            sshUser: row.sshUser,
            options: row.options,
          },
        });
        await tx.audit.record(actor, {
          action: 'proxy.convert',
          targetType: 'proxy_configuration',
          targetId: row.id,
          targetOwnerId: row.userId,
          changes: [
            { field: 'origin', before: 'adopted', after: 'portico' },
            { field: 'nginxConfigPath', before: row.adoptedFile, after: outcome.nginxConfigPath },
          ],
        });
      });
      return { converted: true, nginxConfigPath: outcome.nginxConfigPath, log };
    },
  };
}
