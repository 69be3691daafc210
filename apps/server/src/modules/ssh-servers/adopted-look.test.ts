import { describe, expect, it } from 'vitest';
import { adoptedInScan, parseAdoptedLook } from './adopted-look';

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

describe('adoptedInScan', () => {
  const dump = [
    '# configuration file /etc/nginx/nginx.conf:',
    'http { include /etc/nginx/sites-enabled/*; }',
    '',
    `# configuration file ${A}:`,
    'server { listen 80; server_name a.example.com; }',
    '',
  ].join('\n');
  const answer = {
    dump,
    hashes: new Map([[A, hash]]),
    nginxTestExit: 0,
    truncated: false,
  };

  it('reads a file in the configuration by its hash and calls one not in it gone', () => {
    expect(adoptedInScan(answer, [A, B])).toEqual(
      new Map<string, unknown>([
        [A, { sha256: hash }],
        [B, 'missing'],
      ]),
    );
  });

  it('calls nothing gone from a configuration it did not read whole', () => {
    for (const partial of [
      { ...answer, nginxTestExit: 1 },
      { ...answer, truncated: true },
    ]) {
      expect(adoptedInScan(partial, [A, B])).toEqual(new Map([[A, { sha256: hash }]]));
    }
    // In the dump but not a regular file sha256sum could read: left as it was.
    expect(adoptedInScan({ ...answer, hashes: new Map() }, [A])).toEqual(
      new Map([[A, 'unreadable']]),
    );
  });
});
