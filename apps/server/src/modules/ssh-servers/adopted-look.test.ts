import { describe, expect, it } from 'vitest';
import { parseAdoptedLook } from './adopted-look';

const A = '/etc/nginx/sites-enabled/a';
const B = '/etc/nginx/conf.d/b.conf';
const C = '/etc/nginx/sites-enabled/c';
const hash = 'ab'.repeat(32);

describe('parseAdoptedLook', () => {
  it('reads a hash, a gone file and an unreadable one, each asked file once', () => {
    const found = parseAdoptedLook(
      [
        `PORTICO_ADOPTED=${hash} ${A}`,
        `PORTICO_ADOPTED=missing ${B}`,
        `PORTICO_ADOPTED=unreadable ${C}`,
        `PORTICO_ADOPTED=missing ${A}`,
      ].join('\n'),
      [A, B, C],
    );
    expect(found).toEqual(
      new Map<string, unknown>([
        [A, { sha256: hash }],
        [B, 'missing'],
        [C, 'unreadable'],
      ]),
    );
  });

  it('leaves out what it did not ask for and what is not its shape', () => {
    const found = parseAdoptedLook(
      [
        `PORTICO_ADOPTED=${hash} /etc/shadow`,
        `PORTICO_ADOPTED=${hash.toUpperCase()} ${A}`,
        `PORTICO_ADOPTED=deleted ${B}`,
        `PORTICO_ADOPTED=missing ${C} extra`,
        `noise PORTICO_ADOPTED=missing ${A}`,
      ].join('\n'),
      [A, B, C],
    );
    expect(found.size).toBe(0);
  });
});
