// The lab's network: a bridge in the root namespace, one namespace per lab machine joined to it
// by a veth pair. No namespace gets a default route, so nothing inside can reach past the lab.
//
// Nothing a lab adds or removes in the root namespace is an address: the host's one address
// toward the labs sits on `lo` for good, each lab's subnet is a route over its bridge, and IPv6
// is off on the root-side links (so no link-local address comes and goes with them). Chromium
// aborts every request in flight with ERR_NETWORK_CHANGED when an address of its namespace is
// added or removed, and the browser tier runs while lab files start and stop labs beside it.
import { existsSync, writeFileSync } from 'node:fs';
import { LAB_HOST_ADDRESS, type TLabNames } from './names';
import { run, runOk } from './run';

const ip = (...args: string[]) => runOk('ip', args);

/** Before the link comes up: no IPv6 link-local address is ever added to it. */
function withoutIpv6(link: string): void {
  const setting = `/proc/sys/net/ipv6/conf/${link}/disable_ipv6`;
  if (existsSync(setting)) writeFileSync(setting, '1');
}

/** The host's address toward the labs, once per boot; two starts at once may both try. */
async function ensureHostAddress(): Promise<void> {
  const shown = await ip('-o', '-4', 'addr', 'show', 'dev', 'lo');
  if (shown.includes(` ${LAB_HOST_ADDRESS}/32 `)) return;
  const added = await run('ip', ['addr', 'add', `${LAB_HOST_ADDRESS}/32`, 'dev', 'lo']);
  if (added.code !== 0 && !/exists/i.test(added.stderr)) {
    throw new Error(`ip addr add ${LAB_HOST_ADDRESS}/32 dev lo: ${added.stderr.trim()}`);
  }
}

export async function createBridge(names: TLabNames): Promise<void> {
  await ensureHostAddress();
  await ip('link', 'add', names.bridge, 'type', 'bridge');
  withoutIpv6(names.bridge);
  await ip('link', 'set', names.bridge, 'up');
  await ip(
    'route',
    'add',
    `${names.net}/${names.prefixLength}`,
    'dev',
    names.bridge,
    'src',
    names.hostAddress,
  );
}

/**
 * Runs `ip` commands in one process (`ip -batch`), stopping at the first failure; with `force`,
 * going on past each failure and reporting none (a teardown, where a name may be gone already).
 * Each command's words are joined by spaces: they are the lab's own names and numbers, none
 * holding a space.
 */
export async function ipBatch(
  lines: string[][],
  options: { netns?: string; force?: boolean } = {},
): Promise<void> {
  const where = options.netns ? ['-n', options.netns] : [];
  const input = `${lines.map((line) => line.join(' ')).join('\n')}\n`;
  if (options.force) await run('ip', [...where, '-force', '-batch', '-'], { input });
  else await runOk('ip', [...where, '-batch', '-'], { input });
}

/**
 * A namespace holding one address on the lab bridge; its side of the veth is called eth0.
 * The host's address is how tests reach the lab, but must not let the lab reach the host:
 * toward it, only packets from the machine's own service ports (answers) are routed.
 * Three `ip` processes rather than one per command: a lab starts a namespace per machine, and
 * on a loaded machine each process took 50–130 ms.
 */
export async function createMachineNetns(
  names: TLabNames,
  netns: string,
  link: string,
  address: string,
  servicePorts: number[],
): Promise<void> {
  await ipBatch([
    ['netns', 'add', netns],
    ['link', 'add', link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', netns],
  ]);
  withoutIpv6(link);
  await ip('link', 'set', link, 'master', names.bridge, 'up');
  const host = names.hostAddress;
  await ipBatch(
    [
      ['addr', 'add', `${address}/${names.prefixLength}`, 'dev', 'eth0'],
      ['link', 'set', 'lo', 'up'],
      ['link', 'set', 'eth0', 'up'],
      // The host is not on the lab's subnet: on the bridge all the same (it answers ARP for it).
      ['route', 'add', `${host}/32`, 'dev', 'eth0'],
      ...servicePorts.map((port) => [
        'rule',
        'add',
        'to',
        host,
        'sport',
        String(port),
        'lookup',
        'main',
        'prio',
        '100',
      ]),
      ['rule', 'add', 'to', host, 'unreachable', 'prio', '200'],
    ],
    { netns },
  );
}

export async function listNetns(prefix: string): Promise<string[]> {
  const out = await runOk('ip', ['-o', 'netns', 'list']);
  return out
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((name) => name.startsWith(prefix));
}

export async function listLinks(prefix: string): Promise<string[]> {
  const out = await runOk('ip', ['-o', 'link', 'show']);
  return out
    .split('\n')
    .map((line) => (line.split(': ')[1] ?? '').split('@')[0] ?? '')
    .filter((name) => name.startsWith(prefix));
}

/** Pids of every process whose network namespace is `netns`. */
export async function netnsPids(netns: string): Promise<number[]> {
  const out = await runOk('ip', ['netns', 'pids', netns]).catch(() => '');
  return out
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}
