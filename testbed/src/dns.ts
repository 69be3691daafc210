// The lab's DNS: dnsmasq answering each lab domain with its server's address, AAAA empty,
// nothing forwarded. dnsmasq does not reload addresses on SIGHUP, so `point` restarts it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertDomain, BIND_PORT, DNS01_ZONE, DOMAIN_SUFFIX, type TLabNames } from './names';
import { resolveA } from './probe';
import { isAlive, startDaemon, waitFor } from './run';

const IPV4_IN_LAB = /^198\.1[89]\.\d{1,3}\.\d{1,3}$/;

/**
 * `dns01`: the DNS-01 zone is forwarded to the lab's bind9, uncached, so a renewal's new
 * challenge is seen at once rather than the last one's answer.
 */
export function dnsmasqArgs(
  names: TLabNames,
  domains: Record<string, string>,
  dns01 = false,
): string[] {
  const args = [
    '--keep-in-foreground',
    '--conf-file=/dev/null',
    '--no-resolv',
    '--no-hosts',
    '--no-poll',
    '--bind-interfaces',
    `--listen-address=${names.infraAddress}`,
    '--port=53',
    `--pid-file=${pidFile(names)}`,
    '--log-facility=-',
    // Unknown names in the lab zone get NXDOMAIN instead of REFUSED.
    `--local=/${DOMAIN_SUFFIX}/`,
  ];
  if (dns01) {
    args.push(`--server=/${DNS01_ZONE}/${names.infraAddress}#${BIND_PORT}`, '--cache-size=0');
  }
  for (const [domain, address] of Object.entries(domains)) {
    assertDomain(domain);
    if (!IPV4_IN_LAB.test(address)) throw new Error(`not a lab address: ${address}`);
    // --local makes AAAA queries answer empty rather than go unanswered.
    args.push(`--address=/${domain}/${address}`, `--local=/${domain}/`);
  }
  return args;
}

function pidFile(names: TLabNames): string {
  return path.join(names.infraDir, 'dnsmasq.pid');
}

function dnsmasqPid(names: TLabNames): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile(names), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export async function startDns(
  names: TLabNames,
  domains: Record<string, string>,
  dns01 = false,
): Promise<void> {
  const args = ['netns', 'exec', names.infraNetns, 'dnsmasq'];
  args.push(...dnsmasqArgs(names, domains, dns01));
  startDaemon('ip', args, { logFile: path.join(names.infraDir, 'dnsmasq.log') });
  const [probeDomain, probeAddress] = Object.entries(domains)[0] ?? [];
  const server = `${names.infraAddress}:53`;
  await waitFor(
    async () =>
      probeDomain ? (await resolveA(server, probeDomain)).includes(probeAddress ?? '') : true,
    5000,
    () => `lab DNS did not answer; see ${path.join(names.infraDir, 'dnsmasq.log')}`,
  );
}

export async function restartDns(names: TLabNames, domains: Record<string, string>, dns01 = false) {
  const pid = dnsmasqPid(names);
  if (pid !== undefined && isAlive(pid)) {
    process.kill(pid, 'SIGTERM');
    await waitFor(
      () => !isAlive(pid),
      3000,
      () => `dnsmasq ${pid} did not stop`,
    );
  }
  await startDns(names, domains, dns01);
}
