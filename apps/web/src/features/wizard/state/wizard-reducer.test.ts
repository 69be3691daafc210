import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import { describe, expect, it } from 'vitest';
import { serverLine } from '@/lib/live-deployment/logs';
import { aProxy } from '@/test/proxy';
import {
  initialWizardState,
  type TWizardAction,
  type TWizardState,
  wizardReducer,
} from './wizard-reducer';

const run = (state: TWizardState, ...actions: TWizardAction[]) =>
  actions.reduce(wizardReducer, state);
const AT = '2026-11-22T16:00:00.000Z';
const MESSAGES = {
  completed: 'Deployment completed',
  failed: 'Deployment failed. Check the logs.',
};
const INFO = {
  serverIp: '198.18.0.10',
  domain: 'app.example.com',
  sshUser: 'root',
  sshPort: 22,
  sshPassword: 'pw',
  email: 'admin@app.example.com',
};
const dnsOk = {
  isValid: true,
  resolvedIps: ['198.18.0.10'],
  expectedIp: '198.18.0.10',
  error: null,
  text: null,
};
const FP = `SHA256:${'A'.repeat(43)}`;

function config(over: Partial<TProxyConfiguration>): TProxyConfiguration {
  return aProxy({
    id: 'c1',
    serverIp: '198.18.0.10',
    sshPort: 2222,
    sshUser: 'deploy',
    email: 'ops@example.com',
    hostKeyFingerprint: FP,
    createdAt: AT,
    updatedAt: AT,
    ...over,
  });
}

const status = (s: TProxyStatus, deploymentId: string | null = 'd1'): TWizardAction => ({
  type: 'statusReceived',
  status: s,
  deploymentId,
  messages: MESSAGES,
  at: AT,
});
const log = (id: number, deploymentId = 'd1'): TWizardAction => ({
  type: 'logsReceived',
  lines: [serverLine({ id, deploymentId, level: 'info', message: `line ${id}`, timestamp: AT })],
});

function validated(): TWizardState {
  const s = run(
    initialWizardState(),
    { type: 'serverInfoSubmitted', info: INFO },
    { type: 'next' },
  );
  const runId = s.dns.runId;
  return run(
    s,
    { type: 'dnsStarted', runId },
    { type: 'dnsFinished', runId, result: dnsOk },
    { type: 'sshStarted', runId },
    {
      type: 'sshFinished',
      runId,
      result: { connected: true, fingerprint: FP, error: null, text: null },
    },
  );
}

describe('wizard flow', () => {
  it('starts at server-info with root as the SSH user and port 22', () => {
    const s = initialWizardState();
    expect(s.step).toBe('server-info');
    expect(s.data.sshUser).toBe('root');
    expect(s.data.sshPort).toBe(22);
    expect(s.dns.status).toBe('waiting');
    expect(s.ssh.status).toBe('pending');
    expect(s.deploy.status).toBe('idle');
  });

  it('walks server-info → dns-validation → destination → deploy → complete', () => {
    let s = validated();
    expect(s.step).toBe('dns-validation');
    expect(s.dns.status).toBe('verified');
    expect(s.ssh.status).toBe('verified');
    expect(s.data.hostKeyFingerprint).toBe(FP);
    s = run(
      s,
      { type: 'next' },
      { type: 'targetChosen', targetServer: 'http://10.0.0.5:8080' },
      { type: 'configurationSaved', id: 'c1' },
      { type: 'next' },
    );
    expect(s.step).toBe('deploy');
    expect(s.data.configurationId).toBe('c1');
    expect(s.data.targetServer).toBe('http://10.0.0.5:8080');
    s = run(s, { type: 'goTo', step: 'complete' });
    expect(s.step).toBe('complete');
  });

  it('goes back one step at a time', () => {
    let s = run(validated(), { type: 'next' }, { type: 'next' });
    expect(s.step).toBe('deploy');
    s = run(s, { type: 'back' });
    expect(s.step).toBe('destination');
    s = run(s, { type: 'back' });
    expect(s.step).toBe('dns-validation');
    s = run(s, { type: 'back' });
    expect(s.step).toBe('server-info');
    expect(s.data.domain).toBe('app.example.com');
  });

  it('restart clears all data and returns to server-info', () => {
    const s = run(
      validated(),
      { type: 'next' },
      { type: 'configurationSaved', id: 'c1' },
      { type: 'restart' },
    );
    expect(s.step).toBe('server-info');
    expect(s.data).toEqual(initialWizardState().data);
    expect(s.dns.status).toBe('waiting');
    expect(s.ssh.status).toBe('pending');
    expect(s.configStatus).toBeNull();
  });
});

describe('DNS and SSH checks', () => {
  it('fails DNS with the returned error and leaves SSH pending', () => {
    let s = run(initialWizardState(), { type: 'serverInfoSubmitted', info: INFO });
    const runId = s.dns.runId;
    s = run(
      s,
      { type: 'dnsStarted', runId },
      {
        type: 'dnsFinished',
        runId,
        result: {
          isValid: false,
          resolvedIps: ['203.0.113.9'],
          expectedIp: INFO.serverIp,
          error: 'Points elsewhere',
          text: { key: 'checks.dns.pointsElsewhere', params: { domain: INFO.domain } },
        },
      },
      { type: 'sshStarted', runId },
    );
    expect(s.dns.status).toBe('failed');
    // Kept as the text, so the screen renders it in its language of the moment.
    expect(s.dns.error).toEqual({
      key: 'checks.dns.pointsElsewhere',
      params: { domain: INFO.domain },
    });
    expect(s.ssh.status).toBe('pending');
  });

  it('Retry resets both checks and ignores answers of the earlier run', () => {
    let s = validated();
    const oldRun = s.dns.runId;
    s = run(s, { type: 'validationRestarted' });
    expect(s.dns.status).toBe('waiting');
    expect(s.ssh.status).toBe('pending');
    expect(s.dns.runId).toBe(oldRun + 1);
    s = run(s, { type: 'dnsFinished', runId: oldRun, result: dnsOk });
    expect(s.dns.status).toBe('waiting');
  });

  it('a failed SSH test keeps its uniform message and no fingerprint', () => {
    let s = validated();
    s = run(s, { type: 'validationRestarted' });
    const runId = s.dns.runId;
    s = run(
      s,
      { type: 'dnsStarted', runId },
      { type: 'dnsFinished', runId, result: dnsOk },
      { type: 'sshStarted', runId },
      {
        type: 'sshFinished',
        runId,
        result: { connected: false, fingerprint: null, error: 'Auth failed', text: null },
      },
    );
    expect(s.ssh.status).toBe('failed');
    expect(s.ssh.error).toBe('Auth failed');
  });

  it('editing the server forgets the fingerprint seen for the old one', () => {
    const s = run(validated(), {
      type: 'serverInfoSubmitted',
      info: { ...INFO, serverIp: '198.18.0.11' },
    });
    expect(s.data.hostKeyFingerprint).toBeNull();
    expect(s.dns.status).toBe('waiting');
  });
});

describe('resume', () => {
  it('loads the configuration, keeps the password stored, and lands on the rule’s step', () => {
    const s = run(initialWizardState(), { type: 'resumed', config: config({}) });
    expect(s.step).toBe('deploy');
    expect(s.data).toMatchObject({
      configurationId: 'c1',
      sshUser: 'deploy',
      sshPort: 2222,
      sshPassword: '',
      savedPasswordFor: { serverIp: '198.18.0.10', sshUser: 'deploy', sshPort: 2222 },
      email: 'ops@example.com',
      hostKeyFingerprint: FP,
    });
  });

  it.each([
    [null, 'completed', 'destination'],
    ['http://10.0.0.5', 'pending', 'deploy'],
    ['http://10.0.0.5', 'dns-validated', 'deploy'],
    ['http://10.0.0.5', 'completed', 'complete'],
    ['http://10.0.0.5', 'failed', 'deploy'],
    ['http://10.0.0.5', 'error', 'deploy'],
    ['http://10.0.0.5', 'deployed', 'deploy'],
    ['http://10.0.0.5', 'deploying', 'deploy'],
  ] as const)('target %s, status %s → %s', (targetServer, st, step) => {
    const s = run(initialWizardState(), {
      type: 'resumed',
      config: config({ targetServer, status: st }),
    });
    expect(s.step).toBe(step);
  });

  it('a reload during a run follows it (deploying, lines accepted)', () => {
    let s = run(initialWizardState(), { type: 'resumed', config: config({ status: 'deploying' }) });
    expect(s.deploy.status).toBe('deploying');
    s = run(s, log(1), log(2), log(1));
    expect(s.deploy.logs.map((l) => l.message)).toEqual(['line 1', 'line 2']);
  });

  it('a failed proxy resumes on its failed run, with the reason, and takes that run’s lines', () => {
    const reason = { key: 'deployLog.script.exited', params: { code: '3' } };
    const failed = config({
      status: 'failed',
      lastFailure: {
        deploymentId: 'd7',
        code: 'custom_script_failed',
        step: 'custom-script',
        message: 'The custom script exited with status 3.',
        text: reason,
        at: AT,
      },
    });
    let s = run(initialWizardState(), { type: 'resumed', config: failed });
    expect(s.step).toBe('deploy');
    expect(s.deploy).toMatchObject({ status: 'failed', deploymentId: 'd7', error: reason });
    s = run(s, log(1, 'd7'), log(2, 'old'), log(3, 'd7'));
    expect(s.deploy.logs.map((l) => l.id)).toEqual([1, 3]);
    // Deploy again starts a fresh run from there.
    s = run(s, { type: 'deployStarted', message: 'Starting', at: AT });
    expect(s.deploy).toMatchObject({ status: 'deploying', deploymentId: null, error: null });
  });

  it('a failed proxy without a recorded reason still resumes failed, with the generic text', () => {
    const s = run(initialWizardState(), {
      type: 'resumed',
      config: config({ status: 'failed' }),
    });
    expect(s.deploy).toMatchObject({
      status: 'failed',
      deploymentId: null,
      error: { key: 'wizard.deploy.failedText' },
    });
  });

  it('a pending proxy resumes ready to deploy, with nothing in the log', () => {
    const s = run(initialWizardState(), { type: 'resumed', config: config({}) });
    expect(s.deploy).toEqual(initialWizardState().deploy);
  });
});

describe('deployment state', () => {
  const ready = () =>
    run(validated(), { type: 'next' }, { type: 'configurationSaved', id: 'c1' }, { type: 'next' });

  it('Start clears the logs and adds an info line; completion adds a success line', () => {
    let s = run(ready(), { type: 'deployStarted', message: 'Starting', at: AT });
    expect(s.deploy.status).toBe('deploying');
    expect(s.deploy.logs.map((l) => [l.level, l.text ?? l.message])).toEqual([
      ['info', 'Starting'],
    ]);
    s = run(
      s,
      { type: 'deployAccepted', deploymentId: 'd1' },
      status('deploying'),
      log(1),
      log(2),
      status('completed'),
    );
    expect(s.deploy.status).toBe('completed');
    expect(s.configStatus).toBe('completed');
    expect(s.deploy.logs.map((l) => l.level)).toEqual(['info', 'info', 'info', 'success']);
  });

  it('a failed run moves to failed with the failure text as an error line', () => {
    const s = run(
      ready(),
      { type: 'deployStarted', message: 'Starting', at: AT },
      { type: 'deployAccepted', deploymentId: 'd1' },
      log(1),
      status('failed'),
    );
    expect(s.deploy.status).toBe('failed');
    expect(s.deploy.error).toBe(MESSAGES.failed);
    expect(s.deploy.logs.at(-1)).toMatchObject({ level: 'error', text: MESSAGES.failed });
  });

  it('a request error moves to failed with its message', () => {
    const s = run(
      ready(),
      { type: 'deployStarted', message: 'Starting', at: AT },
      { type: 'deployRequestFailed', message: 'Deployment error: Unknown error', at: AT },
    );
    expect(s.deploy.status).toBe('failed');
    expect(s.deploy.error).toBe('Deployment error: Unknown error');
  });

  it('ignores another run’s lines and status, and lines while idle', () => {
    let s = run(ready(), log(1, 'old'));
    expect(s.deploy.logs).toEqual([]);
    s = run(
      s,
      { type: 'deployStarted', message: 'Starting', at: AT },
      { type: 'deployAccepted', deploymentId: 'd2' },
    );
    s = run(s, log(5, 'old'), status('completed', 'old'), log(6, 'd2'));
    expect(s.deploy.status).toBe('deploying');
    expect(s.deploy.logs.map((l) => l.text ?? l.message)).toEqual(['Starting', 'line 6']);
  });

  it('going to deploy again after a finished run starts from ready', () => {
    let s = run(
      ready(),
      { type: 'deployStarted', message: 'Starting', at: AT },
      { type: 'deployAccepted', deploymentId: 'd1' },
      status('completed'),
      { type: 'goTo', step: 'complete' },
      { type: 'goTo', step: 'deploy' },
    );
    expect(s.step).toBe('deploy');
    expect(s.deploy.status).toBe('idle');
    expect(s.deploy.logs).toEqual([]);
    s = run(s, { type: 'goTo', step: 'complete' });
    expect(s.step).toBe('complete');
  });
});
