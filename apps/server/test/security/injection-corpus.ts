import { sshAddressProblem } from '@portico/shared/validation/reachability';
import { trimSpaces } from '@portico/shared/validation/rules';
import fc from 'fast-check';

/**
 * Hostile input shared by the injection tests: what has broken tools of this kind
 * before. Every entry is a fragment; the arbitraries below plant fragments inside otherwise valid
 * values, so a refusal proves the fragment was caught and not some unrelated flaw of the value.
 */

// biome-ignore format: one character each, easier to scan in rows
export const SHELL_METACHARACTERS = [
  ';', '|', '&', '$', '`', '(', ')', '{', '}', '<', '>', '*', '?', '[', ']', '~', '#', '!',
  '\\', "'", '"', ' ', '\t', '=', '%', '^', ',', '@', ':', '+',
] as const;

/** ASCII quotes and every Unicode quote that a copy from a word processor or chat brings. */
// biome-ignore format: one character each
export const QUOTES = [
  "'", '"', '`', '\u00B4', '\u02BC', '\u2018', '\u2019', '\u201A', '\u201B', '\u201C', '\u201D',
  '\u201E', '\u201F', '\u2032', '\u2033', '\u2039', '\u203A', '\u00AB', '\u00BB', '\u300C',
  '\u300D', '\uFF02', '\uFF07',
] as const;

/** Line and record breaks, including the ones JavaScript treats as line terminators. */
export const LINE_BREAKS = ['\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085', '\v', '\f'] as const;

export const NUL = '\0';

/** Characters that look harmless or invisible but are not ASCII. */
export const UNICODE_TRICKS = [
  '\u00A0', // no-break space
  '\u200B', // zero-width space
  '\u200D', // zero-width joiner
  '\uFEFF', // byte-order mark
  '\u202E', // right-to-left override
  '\u0430', // Cyrillic a
  '\u0131', // dotless i
  '\u212A', // Kelvin sign: lower-cases to an ASCII k
  '\u0130', // capital I with dot: lower-cases to i and a combining dot
  '\uFF0E', // fullwidth full stop
  '\u3002', // ideographic full stop (IDNA maps it to a dot)
  '\uFF0F', // fullwidth solidus
  '\u2215', // division slash
  '\u0301', // combining acute accent on its own
  '\uD83D\uDE00', // an emoji (surrogate pair)
  '\uD800', // a lone surrogate
] as const;

// \x24{…} is written with an escape so the linter does not take it for a template.
// biome-ignore format: grouped by kind
export const COMMAND_SUBSTITUTION = [
  '$(id)', '`id`', '\x24{IFS}', '$IFS', '$((1+1))', '$HOME', '\x24{PATH}', '<(id)', '>(id)',
  '; id', '| id', '|| id', '&& id', '& id', '> /tmp/pwned', '< /etc/passwd', '2>&1', '!!',
  "'; id; '", '"; id; "', '\\"; id; \\"', "' || id #", '\nid\n', '\r\nid', '\u2028id',
] as const;

/** For SSH user and host: what ssh(1), scp or certbot would read as an option. */
// biome-ignore format: grouped
export const OPTION_INJECTION = [
  '-oProxyCommand=id', '-oProxyCommand=sh -c id', '-o ProxyCommand=id', '--help', '-', '--',
  '-p2222', '-l root', '-F/dev/null', '-i/etc/shadow', '--server=http://evil',
] as const;

// biome-ignore format: grouped
export const PATH_TRAVERSAL = [
  '../', '../../etc/passwd', '..', '..%2f', '..%2F..%2Fetc%2Fpasswd', '%2e%2e/', '%2e%2e%2f',
  '..\\', '..;/', '....//', '/etc/passwd', '/etc/nginx/nginx.conf', '/root/.ssh/authorized_keys',
  '~/.ssh/id_rsa', 'C:\\Windows', '%00', '%0a', '%0d%0a',
] as const;

/** Fragments that end a directive or block in an nginx file and start another. */
// biome-ignore format: grouped
export const NGINX_INJECTION = [
  'x; return 200 pwned;', ';', '}', '{', 'x;}', '} server { listen 80; }', ';return 200 pwned',
  '"; include /etc/passwd; #', "'; include /etc/passwd; #", '$host', '\x24{host}', '$request_uri',
  'x # comment', 'x\nreturn 200 pwned;', 'x;\nlocation / { return 200; }', 'proxy_pass http://evil;',
  'a b', 'a\tb',
] as const;

/** Every fragment above in one list; a failing case names the fragment it planted. */
export const HOSTILE_FRAGMENTS: readonly string[] = [
  ...SHELL_METACHARACTERS,
  ...QUOTES,
  ...LINE_BREAKS,
  NUL,
  ...UNICODE_TRICKS,
  ...COMMAND_SUBSTITUTION,
  ...OPTION_INJECTION,
  ...PATH_TRAVERSAL,
  ...NGINX_INJECTION,
];

/**
 * Fragments with at least one character outside `alphabet` (a character-class body, e.g.
 * 'a-z0-9.-'). A field whose valid values only use `alphabet` must refuse any of these planted
 * inside a valid value.
 */
export function fragmentsOutside(alphabet: string): string[] {
  const inside = new RegExp(`^[${alphabet}]*$`);
  return HOSTILE_FRAGMENTS.filter((f) => !inside.test(f));
}

/**
 * Plants one fragment into a valid value, possibly repeated: at the start, inside or at the end.
 * A fragment that begins or ends with a plain space goes inside, between valid characters: at an
 * edge the API trims plain spaces away (a normalisation, tested on its own), so the value would
 * no longer carry it. Every other character, line breaks and tabs included, may land at an edge.
 */
export function withFragment(
  valid: fc.Arbitrary<string>,
  fragments: readonly string[],
): fc.Arbitrary<{ value: string; fragment: string }> {
  return fc
    .record({
      base: valid,
      fragment: fc.constantFrom(...fragments),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      times: fc.integer({ min: 1, max: 3 }),
    })
    .map(({ base, fragment, at, times }) => {
      const planted = fragment.repeat(times);
      const i = Math.round(at * base.length);
      if (trimSpaces(planted) === planted) {
        return { value: base.slice(0, i) + planted + base.slice(i), fragment };
      }
      const cut = Math.min(Math.max(i, 1), base.length);
      const right = base.slice(cut) || base;
      return { value: base.slice(0, cut) + planted + right, fragment };
    });
}

/** A value of `length` characters made by repeating a valid one (for "overly long" cases). */
export function longValue(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

// Valid values, shaped as the API accepts them (lowercase where the deploy checks want it).

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,14}[a-z0-9])?$/);
const tld = fc.stringMatching(/^[a-z]{2,6}$/);

export const validDomain: fc.Arbitrary<string> = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld)
  .map(([labels, top]) => [...labels, top].join('.'));

/** An address the API takes for a server: no range the SSH reachability policy refuses. */
export const validIpv4: fc.Arbitrary<string> = fc
  .ipV4()
  .filter((ip) => sshAddressProblem(ip) === undefined);

export const validSshUser: fc.Arbitrary<string> = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,31}$/);

export const validPort: fc.Arbitrary<number> = fc.integer({ min: 1, max: 65535 });

export const validEmail: fc.Arbitrary<string> = fc
  .tuple(fc.stringMatching(/^[a-z0-9]{1,10}(?:[._+-][a-z0-9]{1,8}){0,2}$/), validDomain)
  .map(([local, domain]) => `${local}@${domain}`);

const pathSegment = fc
  .stringMatching(/^[A-Za-z0-9._~-]{1,12}$/)
  .filter((s) => s !== '.' && s !== '..');

/** Host part of a target: an address, or a name that resolves everywhere (localhost). */
export const validTargetHost: fc.Arbitrary<string> = fc.oneof(
  fc.ipV4(),
  fc.constant('localhost'),
  validDomain,
);

export interface TTargetParts {
  scheme: '' | 'http' | 'https';
  host: string;
  port: number | undefined;
  path: string[];
}

export function targetText(t: TTargetParts): string {
  const port = t.port === undefined ? '' : `:${t.port}`;
  const path = t.path.map((p) => `/${p}`).join('');
  // A path needs a scheme: `host/path` is neither a manual host[:port] nor a URL.
  const scheme = t.scheme || (t.path.length > 0 ? 'http' : '');
  return `${scheme ? `${scheme}://` : ''}${t.host}${port}${path}`;
}

export function targetParts(host: fc.Arbitrary<string> = validTargetHost) {
  return fc.record({
    scheme: fc.constantFrom<TTargetParts['scheme']>('', 'http', 'https'),
    host,
    port: fc.option(validPort, { nil: undefined }),
    path: fc.array(pathSegment, { maxLength: 3 }),
  });
}

export const validTarget: fc.Arbitrary<string> = targetParts().map(targetText);

export const validScriptName: fc.Arbitrary<string> = fc
  .stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_-]{0,20}$/)
  .map((stem) => `${stem}.sh`);
