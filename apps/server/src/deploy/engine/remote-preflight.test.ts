import { execFileSync } from 'node:child_process';
import { renderText } from '@portico/shared/i18n/text';
import { describe, expect, it } from 'vitest';
import { StepError } from './failure';
import { checkRemotePreflight, REMOTE_PREFLIGHT, remotePreflightProbe } from './remote-preflight';
import { surveyArgs } from './site-record';

const ANSWER = [
  'PORTICO_UID=0',
  'PORTICO_OS:ID=debian',
  'PORTICO_SYSTEMD=no',
  'PORTICO_IPV6=yes',
  'PORTICO_LISTEN:LISTEN 0 511 0.0.0.0:80 0.0.0.0:* users:(("nginx",pid=1,fd=6))',
  'PORTICO_HAS=nginx',
  'PORTICO_HAS=certbot',
  'PORTICO_NGINX=installed',
  'PORTICO_RUNNING=yes',
  'PORTICO_VERSION=nginx version: nginx/1.22.1',
  'PORTICO_LAYOUT=debian',
  'PORTICO_CERT=no',
  'PORTICO_PREFLIGHT=done',
].join('\n');

function refusal(stdout: string): StepError {
  try {
    checkRemotePreflight(stdout);
  } catch (error) {
    return error as StepError;
  }
  throw new Error('accepted');
}

describe('the remote preflight', () => {
  it('runs as one script whose answer the engine accepts (this machine, as a server)', () => {
    const probe = remotePreflightProbe('example.com');
    // No dump kept for the server: '-' and no watched paths.
    expect(probe.args).toEqual([
      '/etc/letsencrypt/live/example.com',
      '-',
      '0',
      ...surveyArgs('example.com'),
    ]);
    const stdout = execFileSync('bash', ['-c', REMOTE_PREFLIGHT, 'portico', ...probe.args], {
      encoding: 'utf8',
    });
    expect(stdout).toMatch(/^PORTICO_UID=\d+$/m);
    // The site record's first look, whole, in the same answer.
    expect(stdout).toMatch(/^PORTICO_SURVEY:PORTICO_SURVEYED=done$/m);
    expect(() => checkRemotePreflight(stdout)).not.toThrow();
  });

  it('accepts a well-formed answer, with lines a login shell printed around it', () => {
    expect(() => checkRemotePreflight(`Welcome!\n${ANSWER}\nbye`)).not.toThrow();
  });

  it.each([
    ['a truncated answer', ANSWER.replace('PORTICO_PREFLIGHT=done', '')],
    ['an unknown layout', ANSWER.replace('PORTICO_LAYOUT=debian', 'PORTICO_LAYOUT=$(reboot)')],
    ['a fact said twice', `${ANSWER}\nPORTICO_CERT=yes`],
    ['an unknown package', `${ANSWER}\nPORTICO_MISSING=sshd`],
  ])('refuses %s at detect-os, quoting what the server said', (_, stdout) => {
    const error = refusal(stdout);
    expect(error).toBeInstanceOf(StepError);
    expect(error.code).toBe('internal');
    expect(error.step).toBe('detect-os');
    const text = renderText('en', error.text);
    expect(text).toContain('The preflight checks could not run on the server:');
    expect(text).toContain('PORTICO_UID=0');
  });
});
