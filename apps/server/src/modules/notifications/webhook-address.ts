import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a user's webhook may point (SSRF, docs/SECURITY.md). Portico calls the URL itself, from
 * inside the operator's network, so a URL aimed at that network could reach services no user
 * should: the cloud metadata endpoint, a database port on loopback, the router's admin page.
 *
 * - forbidden, always: unspecified, link-local (169.254/16 holds the cloud metadata endpoint;
 *   fe80::/10), multicast, reserved and broadcast addresses;
 * - private, only with PORTICO_WEBHOOK_ALLOW_PRIVATE=true: loopback, RFC 1918, carrier-grade
 *   NAT, benchmarking and documentation ranges, IPv6 unique-local;
 * - public: everything else.
 *
 * A name is judged by every address it resolves to (one refused address refuses the URL), when
 * the URL is saved and again at each call, and the call connects to an address that was judged
 * (webhook.ts passes its own lookup), so a name that changes its answer in between gains nothing.
 */
export type TAddressClass = 'public' | 'private' | 'forbidden';

function blockList(v4: [string, number][], v6: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [net, bits] of v4) list.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of v6) list.addSubnet(net, bits, 'ipv6');
  return list;
}

const FORBIDDEN = blockList(
  [
    ['0.0.0.0', 8],
    ['169.254.0.0', 16],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ],
  [
    ['::', 128],
    ['fe80::', 10],
    ['ff00::', 8],
  ],
);

const PRIVATE = blockList(
  [
    ['127.0.0.0', 8],
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
  ],
  [
    ['::1', 128],
    ['fc00::', 7],
    ['2001:db8::', 32],
    ['64:ff9b::', 96],
  ],
);

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function classifyAddress(raw: string): TAddressClass {
  const { address, family } = unmapped(raw);
  if (isIP(address) === 0) return 'forbidden';
  if (FORBIDDEN.check(address, family)) return 'forbidden';
  if (PRIVATE.check(address, family)) return 'private';
  return 'public';
}

/** Why an address may not be called, or null when it may. */
export function refusal(address: string, allowPrivate: boolean): 'forbidden' | 'private' | null {
  const kind = classifyAddress(address);
  if (kind === 'forbidden') return 'forbidden';
  if (kind === 'private' && !allowPrivate) return 'private';
  return null;
}

export class WebhookAddressError extends Error {
  constructor(
    readonly reason: 'forbidden' | 'private' | 'unresolved',
    readonly host: string,
    readonly address?: string,
  ) {
    super(`webhook host ${host} refused: ${reason}${address ? ` (${address})` : ''}`);
  }
}

/** URL hosts keep IPv6 literals in brackets. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

/**
 * Every address `host` stands for, each allowed by the policy; throws WebhookAddressError
 * naming the first refused one, or when the name does not resolve.
 */
export async function allowedAddresses(
  hostname: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<{ address: string; family: number }[]> = (host) =>
    lookup(host, { all: true, verbatim: true }),
): Promise<{ address: string; family: number }[]> {
  const host = bareHost(hostname);
  let answers: { address: string; family: number }[];
  if (isIP(host)) {
    answers = [{ address: host, family: isIP(host) }];
  } else {
    try {
      answers = await resolve(host);
    } catch {
      throw new WebhookAddressError('unresolved', host);
    }
    if (answers.length === 0) throw new WebhookAddressError('unresolved', host);
  }
  for (const answer of answers) {
    const why = refusal(answer.address, allowPrivate);
    if (why) throw new WebhookAddressError(why, host, answer.address);
  }
  return answers;
}
