// Allowlist patterns shared by the forms and the API (spec §5). Anything not matched is refused.

export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const DOMAIN_LABEL_MAX = 63;
export const DOMAIN_MAX = 253;
export const SSH_PORT_MIN = 1;
export const SSH_PORT_MAX = 65535;

const IPV4_SHAPE = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const HOST_WITH_PORT = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;
const HTTP_URL = /^https?:\/\/\S+$/i;

/** Four dot-separated groups of 1 to 3 digits, each 0 to 255. */
export function isIpv4(value: string): boolean {
  if (!IPV4_SHAPE.test(value)) return false;
  return value.split('.').every((part) => Number(part) <= 255);
}

/** At least two dot-separated labels of letters, digits and hyphens (no hyphen at either end). */
export function isDomain(value: string): boolean {
  if (value.length > DOMAIN_MAX) return false;
  const labels = value.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => label.length <= DOMAIN_LABEL_MAX && DOMAIN_LABEL.test(label));
}

/** An IPv4 address or a host name (one or more labels). */
export function isHost(value: string): boolean {
  if (isIpv4(value)) return true;
  if (/^[\d.]+$/.test(value)) return false;
  if (value.length > DOMAIN_MAX) return false;
  return value
    .split('.')
    .every((label) => label.length <= DOMAIN_LABEL_MAX && DOMAIN_LABEL.test(label));
}

/** Manual destination (spec §5): an IPv4, an http/https URL without spaces, or host[:port]. */
export function isManualDestination(value: string): boolean {
  const v = value.trim();
  if (v === '') return false;
  if (isIpv4(v)) return true;
  if (HTTP_URL.test(v)) return isHttpUrl(v);
  if (!HOST_WITH_PORT.test(v)) return false;
  const [host = '', port] = v.split(':');
  if (port !== undefined && !isPort(Number(port))) return false;
  return isHost(host);
}

export function isHttpUrl(value: string): boolean {
  if (!HTTP_URL.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isHost(url.hostname);
  } catch {
    return false;
  }
}

export function isPort(value: number): boolean {
  return Number.isInteger(value) && value >= SSH_PORT_MIN && value <= SSH_PORT_MAX;
}
