import { addressRange } from './address-class';

/**
 * Which IPv4 addresses Portico connects to over SSH (the connection test, deployments, removals).
 * Private ranges (10/8, 172.16/12, 192.168/16, 100.64/10) are allowed: people run their servers
 * on a LAN or a VPN. Refused:
 * - 0.0.0.0/8, "this network": 0.0.0.0 reaches the Portico machine itself on Linux;
 * - 127.0.0.0/8, loopback: the Portico machine itself (its own sshd, services bound to loopback),
 *   never a user's server; the server allows it only when PORTICO_SSH_ALLOW_LOOPBACK is set
 *   (development and tests);
 * - 169.254.0.0/16, link-local: a cloud provider's metadata service lives there;
 * - 224.0.0.0/4, multicast, and 240.0.0.0/4, reserved (with the broadcast 255.255.255.255):
 *   no server answers there.
 */
type TAddressProblem = 'unspecified' | 'loopback' | 'linkLocal' | 'multicast' | 'reserved';

/**
 * Why an address cannot be an SSH server of Portico's, if it cannot: judged by the one
 * classifier (address-class.ts), so an IPv6 spelling of a refused IPv4 address is refused too.
 */
export function sshAddressProblem(address: string): TAddressProblem | undefined {
  const range = addressRange(address);
  // A name is not judged here: its callers judge the addresses it resolves to.
  return range === undefined || range === 'private' || range === 'public' ? undefined : range;
}
