// The lab's network: a bridge in the root namespace, one namespace per lab machine joined to it
// by a veth pair. No namespace gets a default route, so nothing inside can reach past the lab.
import type { TLabNames } from './names';
import { runOk } from './run';

const ip = (...args: string[]) => runOk('ip', args);

export async function createBridge(names: TLabNames): Promise<void> {
  await ip('link', 'add', names.bridge, 'type', 'bridge');
  await ip('addr', 'add', `${names.bridgeAddress}/${names.prefixLength}`, 'dev', names.bridge);
  await ip('link', 'set', names.bridge, 'up');
}

/**
 * A namespace holding one address on the lab bridge; its side of the veth is called eth0.
 * The host's bridge address is how tests reach the lab, but must not let the lab reach the host:
 * toward it, only packets from the machine's own service ports (answers) are routed.
 */
export async function createMachineNetns(
  names: TLabNames,
  netns: string,
  link: string,
  address: string,
  servicePorts: number[],
): Promise<void> {
  await ip('netns', 'add', netns);
  await ip('link', 'add', link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', netns);
  await ip('link', 'set', link, 'master', names.bridge, 'up');
  await ip('-n', netns, 'addr', 'add', `${address}/${names.prefixLength}`, 'dev', 'eth0');
  await ip('-n', netns, 'link', 'set', 'lo', 'up');
  await ip('-n', netns, 'link', 'set', 'eth0', 'up');
  const host = names.bridgeAddress;
  for (const port of servicePorts) {
    await ip(
      '-n',
      netns,
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
    );
  }
  await ip('-n', netns, 'rule', 'add', 'to', host, 'unreachable', 'prio', '200');
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
