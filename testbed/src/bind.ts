// The DNS-01 lab's authoritative DNS: bind9 in the infra namespace, primary for DNS01_ZONE on
// BIND_PORT, each server's name and every name under it answering the server's address, and one
// TSIG key that may change only the servers' `_acme-challenge` TXT records (RFC 2136). dnsmasq
// forwards the zone here, so Pebble (asking dnsmasq) sees what certbot's plugin wrote.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIND_PORT, DNS01_ZONE, dns01Domain, type TLabNames } from './names';
import { resolveA } from './probe';
import { startDaemon, waitFor } from './run';
import type { TLabDns01 } from './types';

const KEY_NAME = 'portico-lab-dns01';
const ALGORITHM = 'HMAC-SHA256';

export function namedConfig(
  dir: string,
  address: string,
  secret: string,
  servers: { name: string }[],
): string {
  const grants = servers
    .map((s) => `    grant ${KEY_NAME}. name _acme-challenge.${dns01Domain(s.name)}. TXT;`)
    .join('\n');
  return `options {
  directory "${dir}";
  pid-file "${path.join(dir, 'named.pid')}";
  listen-on port ${BIND_PORT} { ${address}; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
  allow-query { any; };
};
controls { };
key "${KEY_NAME}." { algorithm ${ALGORITHM.toLowerCase()}; secret "${secret}"; };
zone "${DNS01_ZONE}" {
  type primary;
  file "${path.join(dir, `${DNS01_ZONE}.zone`)}";
  update-policy {
${grants}
  };
};
`;
}

export function zoneFile(
  infraAddress: string,
  servers: { name: string; address: string }[],
): string {
  const records = servers.flatMap((s) => {
    const label = dns01Domain(s.name).slice(0, -DNS01_ZONE.length - 1);
    return [`${label} A ${s.address}`, `*.${label} A ${s.address}`];
  });
  return [
    '$TTL 5',
    `@ SOA ns.${DNS01_ZONE}. hostmaster.${DNS01_ZONE}. 1 60 60 600 5`,
    '@ NS ns',
    `ns A ${infraAddress}`,
    ...records,
    '',
  ].join('\n');
}

export async function startBind(
  names: TLabNames,
  servers: { name: string; address: string }[],
): Promise<TLabDns01> {
  const dir = path.join(names.infraDir, 'bind');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64');
  const conf = path.join(dir, 'named.conf');
  writeFileSync(conf, namedConfig(dir, names.infraAddress, secret, servers), { mode: 0o600 });
  writeFileSync(path.join(dir, `${DNS01_ZONE}.zone`), zoneFile(names.infraAddress, servers));
  // -g: foreground, log to stderr, as root (its files live in the lab's own directory).
  const argv = ['netns', 'exec', names.infraNetns, 'named', '-g', '-4', '-c', conf];
  startDaemon('ip', argv, { logFile: path.join(dir, 'named.log') });
  const probe = servers[0];
  const server = `${names.infraAddress}:${BIND_PORT}`;
  await waitFor(
    async () => (probe ? (await resolveA(server, dns01Domain(probe.name))).length > 0 : true),
    10_000,
    () => `bind9 did not answer; see ${path.join(dir, 'named.log')}`,
  );
  return {
    zone: DNS01_ZONE,
    server: names.infraAddress,
    port: BIND_PORT,
    keyName: KEY_NAME,
    algorithm: ALGORITHM,
    secret,
  };
}
