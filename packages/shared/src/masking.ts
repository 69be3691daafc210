import { isIpv4 } from './validation/rules';

const stars = (length: number, min: number) => '*'.repeat(Math.max(length, min));

/**
 * Display masking of a host (docs/PRODUCT.md#masking): an IPv4 keeps its first and last octets; a dotted host
 * keeps its first and last parts (the first cut to 3 characters when the host has two parts).
 */
export function maskHost(host: string): string {
  if (isIpv4(host)) {
    const [a, b = '', c = '', d] = host.split('.');
    return [a, stars(b.length, 3), stars(c.length, 3), d].join('.');
  }
  const parts = host.split('.');
  if (parts.length < 2) return host;
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (parts.length === 2) {
    return `${first.length > 3 ? `${first.slice(0, 3)}***` : first}.${last}`;
  }
  const middle = parts.slice(1, -1).map((p) => stars(p.length, 3));
  return [first, ...middle, last].join('.');
}

export function maskPort(port: number | string): string {
  return stars(String(port).length, 4);
}
