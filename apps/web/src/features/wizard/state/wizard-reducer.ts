import type { TText } from '@portico/shared/i18n/text';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import { localLine, mergeLogLines } from '@/lib/live-deployment/logs';
import { checkedName, choiceForDomain, defaultCertificateChoice } from './certificate-choice';
import { nextStep, previousStep, resumeStep } from './steps';
import type { TWizardAction, TWizardData, TWizardState } from './wizard-types';

export type * from './wizard-types';

const DEFAULT_SSH_USER = 'root';
const DEFAULT_SSH_PORT = 22;

export const emptyData: TWizardData = {
  serverIp: '',
  domain: '',
  sshUser: DEFAULT_SSH_USER,
  sshPort: DEFAULT_SSH_PORT,
  sshPassword: '',
  email: '',
  targetServer: '',
  configurationId: null,
  savedPasswordFor: null,
  hostKeyFingerprint: null,
  sshServerId: null,
  certificate: defaultCertificateChoice,
};

export function initialWizardState(): TWizardState {
  return {
    step: 'server-info',
    data: emptyData,
    dns: { status: 'waiting', runId: 0, result: null, error: null },
    ssh: { status: 'pending', result: null, error: null },
    deploy: { status: 'idle', deploymentId: null, logs: [], error: null },
    configStatus: null,
    runChecksId: null,
  };
}

function resetChecks(state: TWizardState): TWizardState {
  return {
    ...state,
    dns: { status: 'waiting', runId: state.dns.runId + 1, result: null, error: null },
    ssh: { status: 'pending', result: null, error: null },
  };
}

/** A check's failure as a text; a plain sentence only from a server that sent none. */
function checkError(result: { error: string | null; text?: TText | null }): TText | null {
  return result.text ?? result.error;
}

const FAILED_STATUSES: readonly TProxyStatus[] = ['failed', 'error'];

function onStatus(
  state: TWizardState,
  action: Extract<TWizardAction, { type: 'statusReceived' }>,
): TWizardState {
  const { deploy } = state;
  // Another run's news (e.g. the previous run's replay) does not move this one.
  if (deploy.deploymentId && action.deploymentId && action.deploymentId !== deploy.deploymentId) {
    return state;
  }
  const next = { ...state, configStatus: action.status };
  const deploymentId = deploy.deploymentId ?? action.deploymentId;
  if (action.status === 'deploying') {
    return { ...next, deploy: { ...deploy, status: 'deploying', deploymentId, error: null } };
  }
  if (deploy.status !== 'deploying') return next;
  if (action.status === 'completed') {
    const line = localLine('end', 'success', action.messages.completed, action.at);
    return {
      ...next,
      deploy: { ...deploy, status: 'completed', logs: mergeLogLines(deploy.logs, [line]) },
    };
  }
  if (FAILED_STATUSES.includes(action.status)) {
    const line = localLine('end', 'error', action.messages.failed, action.at);
    return {
      ...next,
      deploy: {
        ...deploy,
        status: 'failed',
        error: action.messages.failed,
        logs: mergeLogLines(deploy.logs, [line]),
      },
    };
  }
  return next;
}

/**
 * Where the deploy step starts when resuming: a reload during a run follows that run (the socket
 * replays its lines); a failed proxy shows its last run, failed, with the reason (the step reads
 * that run's lines); anything else is ready to deploy.
 */
function resumedDeploy(c: TProxyConfiguration): TWizardState['deploy'] {
  const base = initialWizardState().deploy;
  if (c.status === 'deploying') return { ...base, status: 'deploying' };
  if (!FAILED_STATUSES.includes(c.status)) return base;
  const failure = c.lastFailure;
  return {
    ...base,
    status: 'failed',
    deploymentId: failure?.deploymentId ?? null,
    error: failure ? (failure.text ?? failure.message) : { key: 'wizard.deploy.failedText' },
  };
}

export function wizardReducer(state: TWizardState, action: TWizardAction): TWizardState {
  switch (action.type) {
    case 'serverInfoSubmitted': {
      const before = state.data;
      const data: TWizardData = {
        ...before,
        ...action.info,
        sshServerId: action.info.sshServerId ?? null,
        certificate: choiceForDomain(before.certificate, action.info.domain),
        // Another host or port may present another key: the old fingerprint no longer applies.
        hostKeyFingerprint:
          action.info.serverIp === before.serverIp && action.info.sshPort === before.sshPort
            ? before.hostKeyFingerprint
            : null,
      };
      return resetChecks({ ...state, data });
    }
    case 'next':
      return { ...state, step: nextStep(state.step) };
    case 'back':
      return { ...state, step: previousStep(state.step) };
    case 'goTo': {
      // Going to deploy again after a finished run starts from "ready", not from the old result
      // (which would auto-advance straight back to complete).
      const finished = state.deploy.status === 'completed' || state.deploy.status === 'failed';
      if (action.step === 'deploy' && state.step !== 'deploy' && finished) {
        return { ...state, step: action.step, deploy: initialWizardState().deploy };
      }
      return { ...state, step: action.step };
    }
    case 'restart':
      return {
        ...initialWizardState(),
        dns: { ...initialWizardState().dns, runId: state.dns.runId + 1 },
      };
    case 'resumed': {
      const c = action.config;
      const base = initialWizardState();
      const runId = state.dns.runId + 1;
      return {
        ...base,
        dns: { ...base.dns, runId },
        runChecksId: runId,
        step: resumeStep(c),
        configStatus: c.status,
        data: {
          serverIp: c.serverIp,
          domain: c.domain,
          sshUser: c.sshUser,
          sshPort: c.sshPort,
          sshPassword: '',
          email: c.email,
          targetServer: c.targetServer ?? '',
          configurationId: c.id,
          savedPasswordFor: c.hasSshPassword
            ? { serverIp: c.serverIp, sshUser: c.sshUser, sshPort: c.sshPort }
            : null,
          hostKeyFingerprint: c.hostKeyFingerprint,
          // On its saved server with no password of its own: the server's credential is used.
          sshServerId: c.sshAuth === 'server' ? c.sshServerId : null,
          certificate: choiceForDomain(defaultCertificateChoice, c.domain),
        },
        deploy: resumedDeploy(c),
      };
    }
    case 'validationRestarted':
      return resetChecks(state);
    case 'certificateChanged': {
      const { domain } = state.data;
      const next = { ...state, data: { ...state.data, certificate: action.certificate } };
      // Serving the apex or not changes the name the DNS check asks for: it asks again.
      const moved =
        checkedName(domain, action.certificate) !== checkedName(domain, state.data.certificate);
      return moved ? resetChecks(next) : next;
    }
    case 'dnsStarted':
      if (action.runId !== state.dns.runId) return state;
      return { ...state, dns: { ...state.dns, status: 'validating', result: null, error: null } };
    case 'dnsFinished':
      if (action.runId !== state.dns.runId) return state;
      return {
        ...state,
        dns: {
          ...state.dns,
          status: action.result.isValid ? 'verified' : 'failed',
          result: action.result,
          error: action.result.isValid ? null : checkError(action.result),
        },
      };
    case 'dnsErrored':
      if (action.runId !== state.dns.runId) return state;
      return {
        ...state,
        dns: { ...state.dns, status: 'failed', result: null, error: action.message },
      };
    case 'sshStarted':
      if (action.runId !== state.dns.runId || state.dns.status !== 'verified') return state;
      return { ...state, ssh: { status: 'validating', result: null, error: null } };
    case 'sshFinished': {
      if (action.runId !== state.dns.runId) return state;
      const { result } = action;
      return {
        ...state,
        ssh: {
          status: result.connected ? 'verified' : 'failed',
          result,
          error: result.connected ? null : checkError(result),
        },
        data: result.connected
          ? { ...state.data, hostKeyFingerprint: result.fingerprint }
          : state.data,
      };
    }
    case 'sshErrored':
      if (action.runId !== state.dns.runId) return state;
      return { ...state, ssh: { status: 'failed', result: null, error: action.message } };
    case 'targetChosen':
      return { ...state, data: { ...state.data, targetServer: action.targetServer } };
    case 'configurationSaved':
      return {
        ...state,
        configStatus: state.configStatus ?? 'pending',
        data: { ...state.data, configurationId: action.id },
        deploy: state.deploy.status === 'deploying' ? state.deploy : initialWizardState().deploy,
      };
    case 'deployStarted':
      return {
        ...state,
        runChecksId: state.dns.runId,
        deploy: {
          status: 'deploying',
          deploymentId: null,
          error: null,
          logs: [localLine('start', 'info', action.message, action.at)],
        },
      };
    case 'deployAccepted': {
      const { deploy } = state;
      const logs = deploy.logs.filter(
        (l) => l.origin !== 'server' || l.deploymentId === action.deploymentId,
      );
      return { ...state, deploy: { ...deploy, deploymentId: action.deploymentId, logs } };
    }
    case 'deployRequestFailed': {
      const line = localLine('end', 'error', action.message, action.at);
      return {
        ...state,
        deploy: {
          ...state.deploy,
          status: 'failed',
          error: action.message,
          logs: mergeLogLines(state.deploy.logs, [line]),
        },
      };
    }
    case 'logsReceived': {
      const { deploy } = state;
      if (
        deploy.status !== 'deploying' &&
        deploy.status !== 'completed' &&
        deploy.status !== 'failed'
      ) {
        return state;
      }
      const lines = deploy.deploymentId
        ? action.lines.filter(
            (l) => l.deploymentId === null || l.deploymentId === deploy.deploymentId,
          )
        : action.lines;
      const logs = mergeLogLines(deploy.logs, lines);
      return logs === deploy.logs ? state : { ...state, deploy: { ...deploy, logs } };
    }
    case 'statusReceived':
      return onStatus(state, action);
  }
}
