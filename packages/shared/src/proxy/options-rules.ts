import { ipv6Bytes } from '../validation/address-class';
import { isHost } from '../validation/rules';

// Allowlist rules of a proxy's options (options.ts): each value that may reach an nginx file is
// matched whole against a narrow pattern; anything else is refused, never escaped.

const OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
const PREFIX = OCTET;
const UPSTREAM_URL = /^(https?:\/\/)?([A-Za-z0-9.-]+)(?::([0-9]{1,5}))?(\/[A-Za-z0-9._~/-]*)?$/i;

/** The 32 bits of `a.b.c.d` (decimal octets without leading zeros); undefined otherwise. */
function ipv4Bits(address: string): bigint | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((p) => OCTET.test(p) && Number(p) <= 255)) return;
  return parts.reduce((n, p) => n * 256n + BigInt(p), 0n);
}

/**
 * The 128 bits of an IPv6 address in hex groups (`2001:db8::1`, one `::` at most); undefined
 * otherwise. No zone (`%eth0`) and no dotted IPv4 tail: nginx takes neither in every version.
 */
function ipv6Bits(address: string): bigint | undefined {
  if (!/^[0-9A-Fa-f:]{2,39}$/.test(address)) return;
  return ipv6Bytes(address)?.reduce((n, b) => n * 256n + BigInt(b), 0n);
}

/**
 * An IPv4 (`a.b.c.d`, `a.b.c.d/n`) or IPv6 (`2001:db8::1`, `2001:db8::/32`) address or network
 * with no bit set past the prefix (10.0.0.1/8 and 2001:db8::1/32 are refused).
 */
export function cidrProblem(value: string): 'cidr' | 'cidrHostBits' | undefined {
  const [address = '', prefixText, ...rest] = value.split('/');
  if (rest.length > 0) return 'cidr';
  const v6 = address.includes(':');
  const bits = v6 ? ipv6Bits(address) : ipv4Bits(address);
  if (bits === undefined) return 'cidr';
  if (prefixText === undefined) return undefined;
  const width = v6 ? 128 : 32;
  if (!PREFIX.test(prefixText) || Number(prefixText) > width) return 'cidr';
  const hostBits = bits & ((1n << BigInt(width - Number(prefixText))) - 1n);
  return hostBits === 0n ? undefined : 'cidrHostBits';
}

/** How an upstream URL is reached: nginx's `upstream` block holds host:port, the rest is shared. */
export interface TUpstreamParts {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  /** '' or a path starting and ending with '/'. */
  path: string;
}

/**
 * The parts of an upstream written as the target is (an IP, host[:port] or an http(s) URL with
 * a path); undefined when it is not one. The port is explicit: nginx's upstream servers default
 * to 80 whatever the scheme.
 */
export function upstreamParts(value: string): TUpstreamParts | undefined {
  const m = UPSTREAM_URL.exec(value);
  if (!m || !isHost(m[2]!)) return undefined;
  const scheme = m[1]?.toLowerCase().startsWith('https') ? 'https' : 'http';
  const port = m[3] === undefined ? (scheme === 'https' ? 443 : 80) : Number(m[3]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  const segments = (m[4] ?? '').split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return {
    scheme,
    host: m[2]!.toLowerCase(),
    port,
    path: segments.length === 0 ? '' : `/${segments.join('/')}/`,
  };
}

/** An HTTP header name as RFC 9110 tokens go, narrowed to letters, digits and hyphens. */
export const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
/**
 * A header value nginx takes inside double quotes as it is: printable ASCII without `"` and
 * `\` (quoting) and `$` (nginx would read a variable). No control characters, so no CR or LF.
 */
export const HEADER_VALUE = /^[ !#%-[\]-~]{0,1024}$/;
/** Headers Portico sets itself: a custom one would send the answer twice or contradict it. */
export const RESERVED_HEADERS = ['strict-transport-security', 'www-authenticate', 'location'];
/** A location prefix: a path of letters, digits and . _ ~ / -, no `{`, `;`, space or quote. */
export const LOCATION_PATH = /^\/(?:[A-Za-z0-9._~-]+\/?)*$/;
/** htpasswd's `user:hash` lines: a user name without `:` or anything else unusual. */
export const BASIC_AUTH_USER = /^[A-Za-z0-9._@-]{1,64}$/;
/**
 * Advanced lines: printable ASCII and line breaks only, without `{` and `}`: a line could
 * otherwise close the server block and open another, outside the ACME exemption.
 */
export const ADVANCED_TEXT = /^[\n\x20-\x7a|~]*$/;
