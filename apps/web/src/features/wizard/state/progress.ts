import type { TLastFailure } from '@portico/shared/proxy/api';
import { stepIndex, type TWizardStep, WIZARD_STEPS } from './steps';
import type { TWizardState } from './wizard-types';

export type TStepStatus = 'pending' | 'current' | 'completed' | 'failed';
type TDnsStatus = TWizardState['dns']['status'];
type TSshStatus = TWizardState['ssh']['status'];

/** What the step bar and the sidebar both show: one reading of the wizard, so they agree. */
export type TWizardProgress = {
  steps: Record<TWizardStep, TStepStatus>;
  dns: TDnsStatus;
  ssh: TSshStatus;
};

/** The run failures that are a check's: the run found what the check would have found. */
const CHECK_OF_FAILURE: Partial<Record<string, 'dns' | 'ssh'>> = {
  dns_mismatch: 'dns',
  tcp_connect: 'ssh',
  auth_failed: 'ssh',
  host_key_mismatch: 'ssh',
};

/**
 * The check the last run failed on, when nothing was checked since that run: a Retry or an edit
 * (a new dns.runId) is newer news. A failure of another run (the one before, while this run's
 * news is still on its way) is not this run's.
 */
function runFailedOn(
  state: TWizardState,
  lastFailure: TLastFailure | null | undefined,
): 'dns' | 'ssh' | undefined {
  if (state.deploy.status !== 'failed' || !lastFailure) return undefined;
  if (state.runChecksId !== state.dns.runId) return undefined;
  const { deploymentId } = state.deploy;
  if (deploymentId && lastFailure.deploymentId && deploymentId !== lastFailure.deploymentId) {
    return undefined;
  }
  return CHECK_OF_FAILURE[lastFailure.code];
}

/** One check: the run's failure, else this visit's finding, else what the step bar says. */
function checkStatus<S extends string>(
  found: S,
  notRun: S,
  runFailed: boolean,
  behind: boolean,
): S | 'failed' | 'verified' {
  if (runFailed) return 'failed';
  if (found !== notRun) return found;
  return behind ? 'verified' : notRun;
}

/**
 * The steps and the checks, from the state and the configuration's last failure. A step before
 * the current one is completed, except the validation step when the last run failed on a check.
 * A check shows what it found in this visit; a check not run in this visit but behind the
 * current step passed when the proxy was set up (the step bar shows it done), and a run that
 * failed on it since says failed.
 */
export function wizardProgress(
  state: TWizardState,
  lastFailure: TLastFailure | null | undefined,
): TWizardProgress {
  const current = stepIndex(state.step);
  const checksBehind = current > stepIndex('dns-validation');
  const failedOn = runFailedOn(state, lastFailure);
  const steps = Object.fromEntries(
    WIZARD_STEPS.map((step, index) => {
      let status: TStepStatus =
        index < current ? 'completed' : index === current ? 'current' : 'pending';
      if (step === 'dns-validation' && status === 'completed' && failedOn) status = 'failed';
      return [step, status];
    }),
  ) as Record<TWizardStep, TStepStatus>;
  const dns = checkStatus(state.dns.status, 'waiting', failedOn === 'dns', checksBehind);
  const ssh = checkStatus(state.ssh.status, 'pending', failedOn === 'ssh', checksBehind);
  return { steps, dns, ssh };
}
