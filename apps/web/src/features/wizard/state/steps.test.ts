import { PROXY_STATUSES } from '@portico/shared/proxy/schemas';
import { describe, expect, it } from 'vitest';
import { nextStep, previousStep, resumeStep } from './steps';

describe('wizard steps', () => {
  it('moves forward one step at a time and stops at complete', () => {
    expect(nextStep('server-info')).toBe('dns-validation');
    expect(nextStep('dns-validation')).toBe('destination');
    expect(nextStep('destination')).toBe('deploy');
    expect(nextStep('deploy')).toBe('complete');
    expect(nextStep('complete')).toBe('complete');
  });

  it('goes back one step (deploy→destination→dns-validation→server-info), none from the ends', () => {
    expect(previousStep('deploy')).toBe('destination');
    expect(previousStep('destination')).toBe('dns-validation');
    expect(previousStep('dns-validation')).toBe('server-info');
    expect(previousStep('server-info')).toBe('server-info');
    expect(previousStep('complete')).toBe('complete');
  });

  describe('resume rule', () => {
    it.each(PROXY_STATUSES)('without a target, status %s resumes at destination', (status) => {
      expect(resumeStep({ targetServer: null, status, hasSshPassword: true })).toBe('destination');
      expect(resumeStep({ targetServer: '', status, hasSshPassword: true })).toBe('destination');
    });

    const withTarget = {
      pending: 'deploy',
      'dns-validated': 'deploy',
      completed: 'complete',
      deploying: 'deploy',
      failed: 'deploy',
      deployed: 'deploy',
      error: 'deploy',
    } as const;
    it.each(Object.entries(withTarget))(
      'with a target, status %s resumes at %s',
      (status, step) => {
        const config = { targetServer: 'http://10.0.0.5:8080', status: status as never };
        expect(resumeStep({ ...config, hasSshPassword: true })).toBe(step);
      },
    );

    // The password is cleared when the server, port or user changed: it is asked for again first.
    it.each(PROXY_STATUSES.filter((s) => s !== 'deploying'))(
      'without a saved password, status %s resumes at server info',
      (status) => {
        for (const targetServer of [null, 'http://10.0.0.5:8080']) {
          expect(resumeStep({ targetServer, status, hasSshPassword: false })).toBe('server-info');
        }
      },
    );
    it('on its saved server (no password of its own) nothing is asked for', () => {
      const config = { targetServer: 'http://10.0.0.5:8080', hasSshPassword: false };
      expect(resumeStep({ ...config, status: 'pending', sshAuth: 'server' })).toBe('deploy');
      expect(resumeStep({ ...config, status: 'pending', sshAuth: 'none' })).toBe('server-info');
    });
    it('without a saved password, a running one is still followed', () => {
      const config = { targetServer: 'http://10.0.0.5:8080', hasSshPassword: false };
      expect(resumeStep({ ...config, status: 'deploying' })).toBe('deploy');
    });
  });
});
