import { PROXY_STATUSES } from '@portico/shared/proxy/schemas';
import { describe, expect, it } from 'vitest';
import { statusTone, TONE_BADGE } from './proxy-status';

describe('one status colour on every screen', () => {
  it.each([
    ['completed', 'done', 'success'],
    ['deployed', 'done', 'success'],
    ['deploying', 'running', 'info'],
    ['failed', 'failed', 'destructive'],
    ['error', 'failed', 'destructive'],
    ['pending', 'waiting', 'warning'],
    ['dns-validated', 'waiting', 'warning'],
  ] as const)('%s is %s (%s)', (status, tone, badge) => {
    expect(statusTone(status)).toBe(tone);
    expect(TONE_BADGE[statusTone(status)]).toBe(badge);
  });

  it('is red only for a failure', () => {
    const red = PROXY_STATUSES.filter((s) => TONE_BADGE[statusTone(s)] === 'destructive');
    expect(red).toEqual(['failed', 'error']);
  });
});
