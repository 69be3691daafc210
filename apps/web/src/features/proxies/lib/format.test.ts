import { describe, expect, it } from 'vitest';
import { expiryTone } from './format';

describe('certificate expiry tone', () => {
  const now = new Date(2026, 0, 5);
  it.each([
    [new Date(2026, 0, 4), 'expired'],
    [new Date(2026, 0, 12), 'soon'],
    [new Date(2026, 2, 1), 'ok'],
  ] as const)('%s is %s', (date, tone) => {
    expect(expiryTone(date.toISOString(), now)).toBe(tone);
  });

  it('has no tone without a date', () => {
    expect(expiryTone(null, now)).toBeNull();
  });
});
