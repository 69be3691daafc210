import { describe, expect, it } from 'vitest';
import { formatDateMinutes, formatDateTime, formatDay, formatRelative } from './format-date';

// Built from local parts so the expectations hold in any time zone.
const local = new Date(2026, 0, 5, 7, 8, 9).toISOString();

describe('date formats', () => {
  it('shows creation and log times as yyyy-MM-dd HH:mm:ss', () => {
    expect(formatDateTime(local)).toBe('2026-01-05 07:08:09');
  });

  it('shows the last update as yyyy-MM-dd HH:mm', () => {
    expect(formatDateMinutes(local)).toBe('2026-01-05 07:08');
  });

  it('gives null for a missing or unreadable date (the screen shows N/A)', () => {
    expect(formatDateTime(null)).toBeNull();
    expect(formatDateTime('')).toBeNull();
    expect(formatDateMinutes('not a date')).toBeNull();
    expect(formatDay(undefined, 'en')).toBeNull();
    expect(formatRelative(null, 'es')).toBeNull();
  });

  it('writes the month in the words of the language', () => {
    expect(formatDay(local, 'en')).toBe('Jan 5, 2026');
    expect(formatDay(local, 'es')).toBe('5 ene 2026');
  });

  it('says how far a date is, in each language', () => {
    const now = new Date(2026, 0, 5, 10, 8, 9);
    expect(formatRelative(local, 'en', now)).toBe('about 3 hours ago');
    expect(formatRelative(local, 'es', now)).toBe('hace alrededor de 3 horas');
    const expiry = new Date(2026, 3, 5, 7, 8, 9).toISOString();
    expect(formatRelative(expiry, 'en', new Date(2026, 0, 5))).toBe('in 3 months');
    expect(formatRelative(expiry, 'es', new Date(2026, 0, 5))).toBe('en 3 meses');
  });
});
