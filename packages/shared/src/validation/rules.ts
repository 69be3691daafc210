// Allowlist patterns shared by the forms and the API (docs/PRODUCT.md#validation-rules). Anything not matched is refused.

export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
const DOMAIN_LABEL_MAX = 63;
const DOMAIN_MAX = 253;
const SSH_PORT_MIN = 1;
const SSH_PORT_MAX = 65535;

const IPV4_SHAPE = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
/** 0, or 1 to 255 without a leading zero: how every tool reads an octet as decimal. */
const CANONICAL_OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
/**
 * Control and line-break characters: C0 (NUL, tab, CR, LF…), DEL, C1 (Unicode category Cc) and
 * the line and paragraph separators (Zl, Zp: U+2028, U+2029). None belongs in any value Portico
 * takes; some end a line in a log, a shell or a protocol, and OpenSSH drops the connection on a
 * password holding a NUL.
 */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const HOST_WITH_PORT = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;
const HTTP_URL = /^https?:\/\/\S+$/i;
const TARGET_URL = /^https?:\/\/([A-Za-z0-9.-]+)(?::([0-9]{1,5}))?(\/[A-Za-z0-9._~/-]*)?$/i;
/** Longest target or destination endpoint, as the deployment's own check. */
const TARGET_MAX = 2048;

/** True when the value holds a control or line-break character anywhere (see CONTROL). */
export function hasControlCharacter(value: string): boolean {
  return CONTROL.test(value);
}

/**
 * Plain spaces (U+0020) removed at both ends, nothing else: a tab, a line break or a no-break
 * space stays in the value, to be refused by the control check or the field's allowlist.
 */
export function trimSpaces(value: string): string {
  return value.replace(/^ +| +$/g, '');
}

/**
 * Four dot-separated decimal octets, each 0 to 255, without leading zeros: `198.022.07.013` is
 * refused, because the C library (and so ssh, ping, curl, Node's connect) reads a leading zero
 * as octal and would reach 198.18.7.11. The one spelling per address also makes it a fair key
 * for rate limits.
 */
export function isIpv4(value: string): boolean {
  if (!IPV4_SHAPE.test(value)) return false;
  return value.split('.').every((part) => CANONICAL_OCTET.test(part) && Number(part) <= 255);
}

/** Four dot-separated groups of 1 to 3 digits where some group has a leading zero. */
export function isIpv4WithLeadingZero(value: string): boolean {
  if (!IPV4_SHAPE.test(value)) return false;
  const parts = value.split('.');
  return parts.every((p) => Number(p) <= 255) && parts.some((p) => !CANONICAL_OCTET.test(p));
}

/**
 * At least two dot-separated labels of letters, digits and hyphens (no hyphen at either end); the
 * last label is not all digits, so an address such as 203.0.113.10 is not taken for a domain.
 */
export function isDomain(value: string): boolean {
  if (value.length > DOMAIN_MAX) return false;
  const labels = value.split('.');
  if (labels.length < 2 || /^\d+$/.test(labels.at(-1)!)) return false;
  return labels.every((label) => label.length <= DOMAIN_LABEL_MAX && DOMAIN_LABEL.test(label));
}

/** An IPv4 address or a host name (one or more labels, the last one not all digits). */
export function isHost(value: string): boolean {
  if (isIpv4(value)) return true;
  if (value.length > DOMAIN_MAX) return false;
  const labels = value.split('.');
  if (/^\d+$/.test(labels.at(-1) ?? '')) return false;
  return labels.every((label) => label.length <= DOMAIN_LABEL_MAX && DOMAIN_LABEL.test(label));
}

/** Manual destination: an IPv4, an http/https URL without spaces, or host[:port]. */
export function isManualDestination(value: string): boolean {
  const v = trimSpaces(value);
  if (v === '' || v.length > TARGET_MAX) return false;
  if (isIpv4(v)) return true;
  if (HTTP_URL.test(v)) return isHttpUrl(v);
  if (!HOST_WITH_PORT.test(v)) return false;
  const [host = '', port] = v.split(':');
  if (port !== undefined && !isPort(Number(port))) return false;
  return isHost(host);
}

/**
 * An http/https URL the deployment can put in `proxy_pass` as it is: scheme, host, optional port
 * and a path of letters, digits and . _ ~ / - only, without empty, `.` or `..` segments. No user
 * info, query, fragment, percent-escapes or characters a URL parser would quietly map to ASCII
 * (the server's allowlist, deploy/validate.ts, refuses the same things).
 */
export function isHttpUrl(value: string): boolean {
  if (value.length > TARGET_MAX) return false;
  const match = TARGET_URL.exec(value);
  if (!match) return false;
  const [, host = '', port, path = ''] = match;
  if (!isHost(host)) return false;
  if (port !== undefined && !isPort(Number(port))) return false;
  const segments = path.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  return segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

const EMAIL_LOCAL = /^[A-Za-z0-9_%+][A-Za-z0-9_%+-]*(?:\.[A-Za-z0-9_%+-]+)*$/;

/**
 * The certificate e-mail, narrower than an account e-mail: what certbot and every CA accept and
 * what the deployment's own check (deploy/validate.ts assertEmail) lets through. No quotes, no
 * leading dash (certbot would read it as an option), a host name after the @.
 */
export function isCertificateEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  const host = value.slice(at + 1);
  return (
    value.length <= 254 &&
    at >= 1 &&
    local.length <= 64 &&
    EMAIL_LOCAL.test(local) &&
    isDomain(host)
  );
}

function isPort(value: number): boolean {
  return Number.isInteger(value) && value >= SSH_PORT_MIN && value <= SSH_PORT_MAX;
}
