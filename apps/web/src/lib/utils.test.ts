import { describe, expect, it } from 'vitest';
import { cn, initials } from './utils';

const u = (username: string, firstName: string | null = null, lastName: string | null = null) => ({
  username,
  firstName,
  lastName,
});

describe('initials', () => {
  it('uses first and last name when both are known', () => {
    expect(initials(u('jdoe', 'ana', 'garcía'))).toBe('AG');
  });
  it('uses the first name alone when there is no last name', () => {
    expect(initials(u('jdoe', 'Ana'))).toBe('AN');
  });
  it('takes the first letters of the username words', () => {
    expect(initials(u('jane_doe'))).toBe('JD');
    expect(initials(u('a_very_long_name'))).toBe('AV');
  });
  it('takes the first two characters of a one-word username', () => {
    expect(initials(u('jane'))).toBe('JA');
    expect(initials(u('x'))).toBe('X');
  });
  it('never shows punctuation', () => {
    expect(initials(u('_jane_'))).toBe('JA');
  });
});

describe('cn', () => {
  it('lets the later conflicting utility win', () => {
    expect(cn('px-2 py-1', false && 'hidden', 'px-4')).toBe('py-1 px-4');
  });
});
