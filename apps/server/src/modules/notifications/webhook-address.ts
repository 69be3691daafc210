import { addressClass } from '@portico/shared/validation/address-class';
import { lookupAll } from '../../net/dns';
import { isIP } from '../../net/tcp';

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
 * An IPv6 address carrying an IPv4 one (mapped, NAT64, 6to4, Teredo...) is judged by the IPv4
 * address it carries (the classifier, packages/shared validation/address-class.ts).
 *
 * A name is judged by every address it resolves to (one refused address refuses the URL), when
 * the URL is saved and again at each call, and the call connects to an address that was judged
 * (webhook.ts passes its own lookup), so a name that changes its answer in between gains nothing.
 */
/** The one classifier's coarse class (packages/shared validation/address-class.ts). */
export const classifyAddress = addressClass;

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
  resolve: (host: string) => Promise<{ address: string; family: number }[]> = lookupAll,
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
