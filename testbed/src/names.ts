// Every name and address a lab uses derives from its number, so that `down` and the sweep of a
// crashed run can find all of it again without trusting a state file.
import path from 'node:path';

export const LAB_ROOT = '/run/portico-lab';
/**
 * The host's one address toward every lab (network.ts): on `lo`, added by the first lab start and
 * never removed, outside every lab's 198.18.K.0/24.
 */
export const LAB_HOST_ADDRESS = '198.19.255.1';
export const MAX_LAB_ID = 250;
export const MAX_SERVERS = 200;
export const UPSTREAM_PORT = 8080;
export const ACME_PORT = 14000;
export const ACME_MANAGEMENT_PORT = 15000;
/** The authoritative bind9 of a lab started with `dns01` (beside dnsmasq on 53). */
export const BIND_PORT = 5353;
/** Ports the host may talk to; anything else in the lab cannot send packets to the host. */
export const INFRA_PORTS = [53, ACME_PORT, ACME_MANAGEMENT_PORT, UPSTREAM_PORT, BIND_PORT];
export const SERVER_PORTS = [22, 80, 443];
export const UPSTREAM_NAME = 'portico-lab-upstream';
export const DOMAIN_SUFFIX = 'portico.test';
/** The zone bind9 serves with dynamic updates (DNS-01); dnsmasq forwards it there. */
export const DNS01_ZONE = `dyn.${DOMAIN_SUFFIX}`;

export type TLabNames = ReturnType<typeof labNames>;

export function labNames(id: number) {
  if (!Number.isInteger(id) || id < 0 || id > MAX_LAB_ID) throw new Error(`bad lab id ${id}`);
  const prefix = `ptl${id}-`;
  const net = `198.18.${id}`;
  const dir = path.join(LAB_ROOT, String(id));
  return {
    id,
    prefix,
    dir,
    stateFile: path.join(dir, 'state.json'),
    infraDir: path.join(dir, 'infra'),
    bridge: `${prefix}br`,
    net: `${net}.0`,
    hostAddress: LAB_HOST_ADDRESS,
    infraNetns: `${prefix}infra`,
    infraLink: `${prefix}inf`,
    infraAddress: `${net}.2`,
    prefixLength: 24,
    server: (index: number) => serverNames(id, prefix, net, dir, index),
  };
}

export type TServerNames = ReturnType<typeof serverNames>;

function serverNames(labId: number, prefix: string, net: string, dir: string, index: number) {
  if (!Number.isInteger(index) || index < 1 || index > MAX_SERVERS) {
    throw new Error(`bad server index ${index}`);
  }
  const name = `s${index}`;
  return {
    index,
    name,
    netns: `${prefix}${name}`,
    link: `${prefix}${name}`,
    address: `${net}.${10 + index}`,
    hostname: labId === 0 ? `portico-${name}` : `portico-l${labId}-${name}`,
    dir: path.join(dir, name),
  };
}

/** The lab domains a server starts with. */
export function defaultDomains(serverName: string): string[] {
  const zone = `${serverName}.${DOMAIN_SUFFIX}`;
  return [`site1.${zone}`, `www.site1.${zone}`, `site2.${zone}`];
}

/** A server's own name in the DNS-01 zone: it and every name under it answer its address. */
export function dns01Domain(serverName: string): string {
  return `${serverName}.${DNS01_ZONE}`;
}

export function legacyDomain(serverName: string): string {
  return `legacy.${serverName}.${DOMAIN_SUFFIX}`;
}

/** The `hand-sites` variant's TLS site: in the lab's DNS, so Pebble can validate it. */
export function handTlsDomain(serverName: string): string {
  return `h-tls.${serverName}.${DOMAIN_SUFFIX}`;
}

const HOSTNAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Lab domains travel into dnsmasq arguments: only plain lower-case host names pass. */
export function assertDomain(domain: string): void {
  if (!HOSTNAME.test(domain)) throw new Error(`not a valid domain: ${JSON.stringify(domain)}`);
}
