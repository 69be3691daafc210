import { describe, expect, it } from 'vitest';
import { certificateState, daysLeft, expiryState, isWorse, worseState } from './state';

const DAY = 24 * 60 * 60 * 1000;
const issued = new Date('2026-01-01T00:00:00Z');
/** A 90-day certificate: a third of its life is 30 days. */
const ninety = { notBefore: issued, notAfter: new Date(issued.getTime() + 90 * DAY) };
const at = (days: number) => new Date(issued.getTime() + days * DAY);

describe('certificate states', () => {
  it('is fine while more than a third of the lifetime is left', () => {
    expect(expiryState(ninety, at(0))).toBe('fine');
    expect(expiryState(ninety, at(59.9))).toBe('fine');
  });

  it('is a warning below a third, and danger below a sixth and once expired', () => {
    expect(expiryState(ninety, at(60.1))).toBe('warning');
    expect(expiryState(ninety, at(74.9))).toBe('warning');
    expect(expiryState(ninety, at(75.1))).toBe('danger');
    expect(expiryState(ninety, at(91))).toBe('danger');
  });

  it('judges a 6-day certificate by its own lifetime, not by days', () => {
    const six = { notBefore: issued, notAfter: at(6) };
    expect(expiryState(six, at(0))).toBe('fine');
    expect(expiryState(six, at(3.9))).toBe('fine');
    expect(expiryState(six, at(4.1))).toBe('warning');
    expect(expiryState(six, at(4.9))).toBe('warning');
    expect(expiryState(six, at(5.1))).toBe('danger');
    expect(expiryState(six, at(6))).toBe('danger');
  });

  it('judges a 45-day certificate by its own lifetime', () => {
    const fortyFive = { notBefore: issued, notAfter: at(45) };
    expect(expiryState(fortyFive, at(29.9))).toBe('fine');
    expect(expiryState(fortyFive, at(30.1))).toBe('warning');
    expect(expiryState(fortyFive, at(37.4))).toBe('warning');
    expect(expiryState(fortyFive, at(37.6))).toBe('danger');
  });

  it('is danger once expired, however long the lifetime', () => {
    expect(expiryState({ notBefore: issued, notAfter: at(365 * 5) }, at(365 * 5))).toBe('danger');
  });

  it('is danger whenever the last check failed', () => {
    expect(certificateState(ninety, true, at(1))).toBe('danger');
    expect(certificateState(ninety, false, at(1))).toBe('fine');
  });

  it('counts whole days left, negative once expired', () => {
    expect(daysLeft(ninety.notAfter, at(80.5))).toBe(9);
    expect(daysLeft(ninety.notAfter, at(89.9))).toBe(0);
    expect(daysLeft(ninety.notAfter, at(92))).toBe(-2);
  });

  it('orders states', () => {
    expect(isWorse('danger', 'warning')).toBe(true);
    expect(isWorse('fine', 'warning')).toBe(false);
    expect(worseState('fine', 'warning')).toBe('warning');
  });
});
