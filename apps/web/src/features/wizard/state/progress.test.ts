import type { TLastFailure } from '@portico/shared/proxy/api';
import { describe, expect, it } from 'vitest';
import { wizardProgress } from './progress';
import {
  initialWizardState,
  type TWizardAction,
  type TWizardState,
  wizardReducer,
} from './wizard-reducer';

const run = (s: TWizardState, ...actions: TWizardAction[]) => actions.reduce(wizardReducer, s);
const RUN_ID = '00000000-0000-4000-8000-0000000000d1';
const AT = '2026-01-05T07:08:09.000Z';
const onDns: TLastFailure = {
  deploymentId: RUN_ID,
  code: 'dns_mismatch',
  step: 'preflight',
  message: 'points elsewhere',
  text: null,
  at: AT,
};

/** Checked in this visit, saved, deployed, and the run failed. */
function failedRun(): TWizardState {
  let s = run(
    initialWizardState(),
    {
      type: 'serverInfoSubmitted',
      info: {
        serverIp: '198.18.0.10',
        domain: 'a.example.com',
        sshUser: 'root',
        sshPort: 22,
        sshPassword: 'pw',
        email: '',
      },
    },
    { type: 'next' },
  );
  const runId = s.dns.runId;
  const ok = { error: null, text: null };
  s = run(
    s,
    { type: 'dnsStarted', runId },
    {
      type: 'dnsFinished',
      runId,
      result: { isValid: true, resolvedIps: ['198.18.0.10'], expectedIp: '198.18.0.10', ...ok },
    },
    { type: 'sshStarted', runId },
    { type: 'sshFinished', runId, result: { connected: true, fingerprint: null, ...ok } },
    { type: 'next' },
    { type: 'configurationSaved', id: 'c1' },
    { type: 'next' },
    { type: 'deployStarted', message: 'starting', at: AT },
    { type: 'deployAccepted', deploymentId: RUN_ID },
    {
      type: 'statusReceived',
      status: 'failed',
      deploymentId: RUN_ID,
      messages: { completed: 'done', failed: 'failed' },
      at: AT,
    },
  );
  return s;
}

describe('wizardProgress', () => {
  it('a run that failed on DNS after the checks passed: DNS failed, the validation step too', () => {
    const s = failedRun();
    expect(s.step).toBe('deploy');
    const p = wizardProgress(s, onDns);
    expect(p.dns).toBe('failed');
    expect(p.ssh).toBe('verified');
    expect(p.steps['dns-validation']).toBe('failed');
  });

  it('an SSH login refused by the run: SSH failed', () => {
    const p = wizardProgress(failedRun(), { ...onDns, code: 'auth_failed', step: 'connect' });
    expect(p.ssh).toBe('failed');
    expect(p.dns).toBe('verified');
  });

  it('a failure of another kind, or of an earlier run, leaves the checks as found', () => {
    expect(wizardProgress(failedRun(), { ...onDns, code: 'certbot_failed' }).dns).toBe('verified');
    const earlier = { ...onDns, deploymentId: '00000000-0000-4000-8000-0000000000d0' };
    expect(wizardProgress(failedRun(), earlier).dns).toBe('verified');
  });

  it('checking again after the run: the new check speaks', () => {
    const s = run(
      failedRun(),
      { type: 'goTo', step: 'dns-validation' },
      { type: 'validationRestarted' },
    );
    const p = wizardProgress(s, onDns);
    expect(p.dns).toBe('waiting');
    expect(p.steps['dns-validation']).toBe('current');
  });
});
