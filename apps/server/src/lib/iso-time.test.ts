import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time';

describe('isoTime', () => {
  it('is toISOString on the edges of days, months, leap years, centuries and its range', () => {
    const edges = [
      0,
      -1,
      1,
      86_399_999,
      86_400_000,
      -86_400_000,
      951_782_400_000,
      951_868_799_999,
      4_107_542_400_000,
      -2_203_891_200_000,
      -62_167_219_200_000,
      253_402_300_799_999,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2100, 2, 1),
      Date.UTC(1900, 1, 28, 12),
      Date.UTC(999, 11, 31, 23, 59, 59, 999),
      Date.UTC(9, 0, 1),
      Date.UTC(2026, 10, 27, 22, 36, 55, 7),
    ];
    for (const ms of edges) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('is toISOString on 100,000 random times from year 0 to 9999', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 100_000; i++) {
      const ms = Math.floor(-62_167_219_200_000 + random() * 315_569_520_000_000);
      expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
    }
  });

  it('leaves years outside 0000–9999 and invalid dates to toISOString', () => {
    const far = new Date(Date.UTC(12_000, 0, 1));
    expect(isoTime(far)).toBe('+012000-01-01T00:00:00.000Z');
    expect(isoTime(new Date(-62_167_219_200_001))).toBe('-000001-12-31T23:59:59.999Z');
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
