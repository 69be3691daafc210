import { createSocket } from 'node:dgram';
import { createServer, type Socket } from 'node:net';
import { SUPPORTED_LANGUAGES, type TLanguage } from '@portico/shared/api-error';
import { sharedCatalogs, translate } from '@portico/shared/i18n/translate';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { fragmentsOutside, longValue, withFragment } from './injection-corpus';

/**
 * Pieces of the API injection tests: listeners that prove nothing was contacted, the hostile
 * values of each field, and the check that a refusal is a 400 a person can act on.
 */

export interface TCountingListener {
  port: number;
  /** Connections (TCP) or datagrams (UDP) received so far. */
  count(): number;
  close(): Promise<void>;
}

/** A TCP listener on 127.0.0.1 that counts and drops every connection: a stand-in SSH server. */
export async function tcpCounter(): Promise<TCountingListener> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('listener has no port');
  return {
    port: address.port,
    count: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The answer "no such domain" to a DNS query: its header and question, RCODE 3. */
function nxdomain(query: Buffer): Buffer | undefined {
  let end = 12;
  while (end < query.length && query[end] !== 0) end += query[end]! + 1;
  end += 5; // the root label, QTYPE and QCLASS
  if (query.length < end) return undefined;
  const answer = Buffer.from(query.subarray(0, end));
  answer[2] = 0x80 | (query[2]! & 0x01); // a response, recursion desired as asked
  answer[3] = 0x80 | 3; // recursion available, NXDOMAIN
  answer.writeUInt16BE(1, 4);
  answer.fill(0, 6, 12);
  return answer;
}

/** A UDP socket on 127.0.0.1 that counts queries and answers NXDOMAIN: a stand-in resolver. */
export async function udpCounter(): Promise<TCountingListener> {
  let count = 0;
  const socket = createSocket('udp4');
  socket.on('message', (query, from) => {
    count += 1;
    const answer = nxdomain(query);
    if (answer) socket.send(answer, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    count: () => count,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

// What each field may hold once valid; a planted fragment with anything else must be refused.
export const ALPHABETS = {
  domain: 'A-Za-z0-9.-',
  host: 'A-Za-z0-9.-',
  sshUser: 'a-z0-9_-',
  port: '0-9',
  email: 'A-Za-z0-9._%+@-',
  target: 'A-Za-z0-9._~/:-',
  scriptName: 'A-Za-z0-9._-',
} as const;
export type TFieldKind = keyof typeof ALPHABETS;

/**
 * Hostile values that planting fragments does not produce: leading dashes (option injection),
 * dot segments, empty labels, over-long values, numbers in forms a lenient parser would read.
 */
const EXPLICIT: Record<TFieldKind, string[]> = {
  domain: [
    '-oproxycommand.example.com',
    '-example.com',
    'example-.com',
    'a..example.com',
    '.example.com',
    'example.com.',
    'example',
    '203.0.113.10',
    'example.123',
    `${'a'.repeat(64)}.example.com`,
    `${longValue('abcdefghi.', 260)}com`,
  ],
  host: [
    '-oProxyCommand',
    '-p2222',
    '--help',
    '-1.2.3.4',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.2.3',
    // Read as octal by the C library: 198.022.07.013 is 198.18.7.11.
    '198.022.07.013',
    '127.0.0.01',
    '010.0.0.1',
    '..',
    `${'a'.repeat(64)}.example.com`,
    longValue('a.', 300),
  ],
  sshUser: ['-oproxycommand', '-l', '--', '-', '0root', `r${'o'.repeat(32)}t`],
  port: [
    '0',
    '-1',
    '65536',
    '99999999999999999999',
    '00',
    '',
    '+22',
    '22.',
    '22.0',
    '0x16',
    '1e3',
    ' 22',
    '22 ',
    '22\n',
    '\u0662\u0662',
    '\uFF12\uFF12',
  ],
  email: [
    '-oproxycommand@example.com',
    '-@example.com',
    '.a@example.com',
    'a..b@example.com',
    'a@example',
    'a@-example.com',
    'a@b@example.com',
    '@example.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${longValue('abcdefghi.', 260)}com`,
  ],
  target: [
    'http://10.0.0.5/app/../../etc',
    'http://10.0.0.5/..',
    'http://10.0.0.5/./app',
    'http://10.0.0.5//app',
    'http://-oproxycommand/',
    'ftp://10.0.0.5/',
    'file:///etc/passwd',
    'gopher://10.0.0.5:70/',
    'http:/10.0.0.5',
    'http://',
    'http://10.0.0.5:0',
    'http://10.0.0.5:65536',
    'http://10.0.0.5:8080:9090',
    '10.0.0.5:',
    `http://10.0.0.5/${'a'.repeat(2100)}`,
  ],
  scriptName: [
    '.hidden.sh',
    '-x.sh',
    '--help.sh',
    'x.sh.sh.',
    'x.bash',
    `${'a'.repeat(120)}.sh`,
    '../../etc/cron.d/x.sh',
    '/etc/profile.d/x.sh',
    '..\\x.sh',
    'C:\\x.sh',
  ],
};

/** Values that are not strings or numbers at all, refused in every field. */
const WRONG_TYPES: unknown[] = [null, true, [], ['a'], {}, { toString: 'x' }];

/** Corpus fragments planted into valid values of the field (see withFragment). */
export function plantedValues(
  kind: TFieldKind,
  valid: fc.Arbitrary<string>,
): fc.Arbitrary<{ value: string; fragment: string }> {
  return withFragment(valid, fragmentsOutside(ALPHABETS[kind]));
}

/** The field's hand-picked hostile values, then values of the wrong type. */
export function explicitValues(kind: TFieldKind): unknown[] {
  const numbers = kind === 'port' ? [0, -1, 65536, 22.5, 1e100, -0.5] : [22];
  return [...EXPLICIT[kind], ...WRONG_TYPES, ...numbers];
}

export const language = fc.constantFrom<TLanguage>(...SUPPORTED_LANGUAGES);

/**
 * Corpus fragments planted in a valid value of the field (`runs` runs, each in a random
 * language): `refuse` sends one and checks that it was refused.
 */
export function assertPlantedRefused(
  field: { kind: TFieldKind; valid: fc.Arbitrary<string> },
  runs: number,
  refuse: (value: string, lang: TLanguage) => Promise<void>,
): Promise<void> {
  return fc.assert(
    fc.asyncProperty(plantedValues(field.kind, field.valid), language, ({ value }, lang) =>
      refuse(value, lang),
    ),
    { numRuns: runs },
  );
}

function leaves(node: unknown, out: Set<string>): Set<string> {
  if (typeof node === 'string') out.add(node);
  else if (node && typeof node === 'object') for (const v of Object.values(node)) leaves(v, out);
  return out;
}

const fieldMessages = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((lang) => {
    const set = leaves(sharedCatalogs[lang].validation, new Set());
    set.delete(translate(lang, 'validation.invalidRequest'));
    return [lang, set];
  }),
) as Record<TLanguage, Set<string>>;

interface TApiErrorBody {
  statusCode: number;
  code: string;
  message: string;
  issues?: { path: string; message: string }[];
}

/**
 * A 400 naming the field, in the requested language: the summary is the catalog's, and the
 * field's own message is one of the field sentences of that language (not the generic one).
 */
export function expectValidationRefusal(
  response: LightMyRequestResponse,
  field: string,
  lang: TLanguage,
  what: string,
): void {
  expect(response.statusCode, `${what}: ${response.body}`).toBe(400);
  const body = response.json() as TApiErrorBody;
  expect(body.code, what).toBe('validation_failed');
  expect(body.message, what).toBe(translate(lang, 'validation.invalidRequest'));
  const issue = body.issues?.find((i) => i.path === field);
  expect(issue, `${what}: no issue for ${field} in ${response.body}`).toBeDefined();
  expect(fieldMessages[lang].has(issue!.message), `${what}: ${issue!.message}`).toBe(true);
  const other = lang === 'en' ? 'es' : 'en';
  expect(fieldMessages[other].has(issue!.message), `${what}: not in ${lang}`).toBe(false);
}

/** JSON.stringify with every non-ASCII character escaped, so a failing case is readable. */
export function shown(value: unknown): string {
  return (
    JSON.stringify(value)?.replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ) ?? String(value)
  );
}
