import type { TProxyConfiguration } from '@portico/shared/proxy/api';

/** The five wizard steps, in order. */
export const WIZARD_STEPS = [
  'server-info',
  'dns-validation',
  'destination',
  'deploy',
  'complete',
] as const;
export type TWizardStep = (typeof WIZARD_STEPS)[number];

export function stepIndex(step: TWizardStep): number {
  return WIZARD_STEPS.indexOf(step);
}

/** Back rule: one step back; the first and last steps have no back. */
export function previousStep(step: TWizardStep): TWizardStep {
  if (step === 'server-info' || step === 'complete') return step;
  return WIZARD_STEPS[stepIndex(step) - 1] ?? step;
}

export function nextStep(step: TWizardStep): TWizardStep {
  return WIZARD_STEPS[stepIndex(step) + 1] ?? step;
}

/**
 * Resume rule (docs/PRODUCT.md#proxy-wizard): without a target resume at destination; with one, deploy when pending or
 * dns-validated, complete when completed, otherwise deploy. A configuration without a saved SSH
 * password (cleared when its server, port or user changed) resumes where the password is asked
 * for (unless its saved server logs in for it), unless it is deploying (the run is followed). A completed one too: its password is only
 * missing after an edit moved it, and the completion step offers no way to enter one.
 */
export function resumeStep(
  config: Pick<TProxyConfiguration, 'targetServer' | 'status' | 'hasSshPassword'> &
    Partial<Pick<TProxyConfiguration, 'sshAuth'>>,
) {
  // On a saved server (sshAuth 'server') the server's credential is used: nothing to ask.
  const asksPassword =
    !config.hasSshPassword && config.sshAuth !== 'server' && config.status !== 'deploying';
  if (asksPassword) return 'server-info' satisfies TWizardStep;
  if (!config.targetServer) return 'destination' satisfies TWizardStep;
  if (config.status === 'completed') return 'complete' satisfies TWizardStep;
  return 'deploy' satisfies TWizardStep;
}
