/**
 * Allowlist checks run right before a value reaches an nginx file or a remote command. They are
 * deliberately independent of the API's zod schemas: if a bad value ever gets past the API (an
 * old row, a migration, a bug), it still stops here. Each check accepts only the canonical form
 * and never echoes the refused value, which may itself carry newlines or control characters.
 */

/** Why a value was refused: each is a key under `deployLog.invalid` in the shared catalogs. */
export const INVALID_REASONS = [
  'notText',
  'empty',
  'tooLong',
  'fewLabels',
  'emptyLabel',
  'longLabel',
  'labelChars',
  'numericLastLabel',
  'ipv4',
  'sshUser',
  'port',
  'email',
  'scheme',
  'targetHost',
  'pathChars',
  'pathSegments',
  'notNormalised',
  'safePath',
  'osFamily',
  'bucketSize',
  'fingerprint',
  'options',
  'advancedDisabled',
  'wildcard',
] as const;
export type TInvalidReason = (typeof INVALID_REASONS)[number];

type TTargetField = 'target' | 'targetServer';

/**
 * The fields the checks name: each is a key under `deployLog.field` (dots become `_`). Typed, so
 * a check cannot name a field the catalogs have no words for.
 */
export const CHECKED_FIELDS = [
  'domain',
  'ip',
  'serverIp',
  'sshUser',
  'port',
  'sshPort',
  'email',
  'target',
  'target.path',
  'target.port',
  'targetServer',
  'targetServer.path',
  'targetServer.port',
  'letsencryptDir',
  'certificate',
  'osFamily',
  'bucketSize',
  'options',
] as const;
export type TCheckedField = (typeof CHECKED_FIELDS)[number];

export class DeployValidationError extends Error {
  readonly code = 'invalid_input';
  constructor(
    readonly field: TCheckedField,
    readonly reason: TInvalidReason,
    readonly params: Record<string, number> = {},
  ) {
    super(`${field}: ${reason}`);
    this.name = 'DeployValidationError';
  }
}

import {
  isWildcard,
  WILDCARD_PREFIX,
  wildcardProblem,
} from '@portico/shared/certificates/dns-challenge';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
const SSH_USER = /^[a-z_][a-z0-9_-]{0,31}$/;
const EMAIL_LOCAL = /^[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*$/;
const DIGITS = /^[1-9][0-9]{0,4}$/;
const PATH = /^[A-Za-z0-9._~/-]*$/;
const ASCII_HOST = /^[A-Za-z0-9.-]+$/;
const MAX_TARGET = 2048;

function text(value: unknown, field: TCheckedField): string {
  if (typeof value !== 'string') throw new DeployValidationError(field, 'notText');
  if (value.length === 0) throw new DeployValidationError(field, 'empty');
  return value;
}

/** LDH host name, lowercase, one or more labels; the last label is not all digits. */
function hostNameProblem(
  value: string,
  minLabels: number,
): { reason: TInvalidReason; params?: Record<string, number> } | undefined {
  if (value.length > 253) return { reason: 'tooLong', params: { max: 253 } };
  const labels = value.split('.');
  if (labels.length < minLabels) return { reason: 'fewLabels', params: { count: minLabels } };
  for (const label of labels) {
    if (label.length === 0) return { reason: 'emptyLabel' };
    if (label.length > 63) return { reason: 'longLabel', params: { max: 63 } };
    if (!LABEL.test(label)) return { reason: 'labelChars' };
  }
  // Rules out things like 1.2.3.999 posing as a name.
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return { reason: 'numericLastLabel' };
  return undefined;
}

export function isDomain(value: unknown): value is string {
  return typeof value === 'string' && hostNameProblem(value, 2) === undefined;
}

export function assertDomain(value: unknown, field: TCheckedField = 'domain'): string {
  const v = text(value, field);
  const problem = hostNameProblem(v, 2);
  if (problem) throw new DeployValidationError(field, problem.reason, problem.params);
  return v;
}

/**
 * A site's name: a domain, or a wildcard `*.<domain>` (DNS-01 only) with `*` as the whole first
 * label over a name that is not a public suffix.
 */
export function assertSiteDomain(value: unknown, field: TCheckedField = 'domain'): string {
  const v = text(value, field);
  if (!isWildcard(v)) return assertDomain(v, field);
  assertDomain(v.slice(WILDCARD_PREFIX.length), field);
  if (wildcardProblem(v)) throw new DeployValidationError(field, 'wildcard');
  return v;
}

export function isIpv4(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const parts = value.split('.');
  return parts.length === 4 && parts.every((p) => OCTET.test(p) && Number(p) <= 255);
}

export function assertIpv4(value: unknown, field: TCheckedField = 'ip'): string {
  const v = text(value, field);
  if (!isIpv4(v)) {
    throw new DeployValidationError(field, 'ipv4');
  }
  return v;
}

export function assertSshUser(value: unknown, field: TCheckedField = 'sshUser'): string {
  const v = text(value, field);
  if (!SSH_USER.test(v)) {
    throw new DeployValidationError(field, 'sshUser');
  }
  return v;
}

export function assertPort(value: unknown, field: TCheckedField = 'port'): number {
  const n = typeof value === 'string' && DIGITS.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 65535) {
    throw new DeployValidationError(field, 'port');
  }
  return n;
}

/** Deliberately narrower than RFC 5322: what certbot and every CA accept without surprises. */
export function assertEmail(value: unknown, field: TCheckedField = 'email'): string {
  const v = text(value, field);
  const at = v.lastIndexOf('@');
  const local = v.slice(0, at);
  const domain = v.slice(at + 1);
  if (
    v.length > 254 ||
    at < 1 ||
    local.length > 64 ||
    !EMAIL_LOCAL.test(local) ||
    local.startsWith('-') ||
    // ASCII before lower-casing: the Kelvin sign (U+212A) lower-cases to an ASCII k.
    !ASCII_HOST.test(domain) ||
    hostNameProblem(domain.toLowerCase(), 2) !== undefined
  ) {
    throw new DeployValidationError(field, 'email');
  }
  return v;
}

export interface TTarget {
  scheme: 'http' | 'https';
  host: string;
  port?: number;
  /** '' or a path starting and ending with '/'. */
  path: string;
}

/**
 * Accepts `203.0.113.5`, `app.internal:8080`, `http://…` or `https://…` with an optional port and
 * path. Scheme and host are lowercased; a missing scheme means http. A non-empty path gets a
 * trailing slash so that `location / { proxy_pass http://h/app/; }` maps /x to /app/x rather
 * than /appx. Userinfo, query, fragment, IPv6 literals and anything outside the path allowlist
 * are refused.
 */
export function normalizeTarget(input: unknown, field: TTargetField = 'target'): TTarget {
  const raw = text(input, field);
  if (raw.length > MAX_TARGET) {
    throw new DeployValidationError(field, 'tooLong', { max: MAX_TARGET });
  }
  let scheme: TTarget['scheme'] = 'http';
  let rest = raw;
  const schemeMatch = /^([A-Za-z]+):\/\//.exec(raw);
  if (schemeMatch) {
    const s = schemeMatch[1]!.toLowerCase();
    if (s !== 'http' && s !== 'https') {
      throw new DeployValidationError(field, 'scheme');
    }
    scheme = s;
    rest = raw.slice(schemeMatch[0].length);
  } else if (raw.includes('://')) {
    throw new DeployValidationError(field, 'scheme');
  }
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const rawPath = slash === -1 ? '' : rest.slice(slash);
  const colon = authority.indexOf(':');
  const hostText = colon === -1 ? authority : authority.slice(0, colon);
  // Checked before lower-casing, which maps some non-ASCII letters (U+212A) to ASCII ones.
  if (!ASCII_HOST.test(hostText)) {
    throw new DeployValidationError(field, 'targetHost');
  }
  const rawHost = hostText.toLowerCase();
  const rawPort = colon === -1 ? undefined : authority.slice(colon + 1);

  if (!isIpv4(rawHost) && hostNameProblem(rawHost, 1) !== undefined) {
    throw new DeployValidationError(field, 'targetHost');
  }
  const target: TTarget = { scheme, host: rawHost, path: normalizePath(rawPath, field) };
  if (rawPort !== undefined) target.port = assertPort(rawPort, `${field}.port`);
  return target;
}

function normalizePath(path: string, field: TTargetField): string {
  if (path === '' || path === '/') return '';
  if (!PATH.test(path)) {
    throw new DeployValidationError(`${field}.path`, 'pathChars');
  }
  const segments = path.slice(1).split('/');
  if (segments.at(-1) === '') segments.pop();
  for (const s of segments) {
    if (s === '' || s === '.' || s === '..') {
      throw new DeployValidationError(`${field}.path`, 'pathSegments');
    }
  }
  return `/${segments.join('/')}/`;
}

export function formatTarget(t: TTarget): string {
  return `${t.scheme}://${t.host}${t.port === undefined ? '' : `:${t.port}`}${t.path}`;
}

/** Re-checks a target object (e.g. one read back from storage) by round-tripping its text form. */
export function assertTarget(t: TTarget | string, field: TTargetField = 'target'): TTarget {
  const parsed = normalizeTarget(typeof t === 'string' ? t : formatTarget(t), field);
  if (typeof t !== 'string' && formatTarget(parsed) !== formatTarget(t)) {
    throw new DeployValidationError(field, 'notNormalised');
  }
  return parsed;
}
