// The lab's programmatic API: start a lab, read its status, point a domain, stop it.
import { mkdirSync } from 'node:fs';
import { sweepStaleLabs, teardownLab } from './cleanup';
import { restartDns } from './dns';
import { execInServer, type TExecOptions } from './exec-in-server';
import { certifyHandSites } from './hand-sites';
import { makeListenerCertificate, startInfraServices } from './infra';
import {
  assertDomain,
  DOMAIN_SUFFIX,
  defaultDomains,
  handTlsDomain,
  INFRA_PORTS,
  LAB_ROOT,
  labNames,
  legacyDomain,
  MAX_SERVERS,
  UPSTREAM_NAME,
  UPSTREAM_PORT,
} from './names';
import { createBridge, createMachineNetns } from './network';
import { startServer } from './server';
import { withStartLock } from './start-lock';
import {
  BY_HAND,
  claimLabId,
  currentOwner,
  inMemory,
  liveOwnerPid,
  readStatus,
  writeOwner,
  writeStatus,
} from './state';
import {
  SERVER_VARIANTS,
  type TExecResult,
  type TLabOptions,
  type TLabStatus,
  type TServerVariant,
} from './types';

export { execInServer } from './exec-in-server';
export type * from './types';

export type TLab = {
  status: TLabStatus;
  stop(): Promise<void>;
  point(domain: string, serverOrAddress: string): Promise<TLabStatus>;
  exec(serverName: string, argv: string[], input?: string): Promise<TExecResult>;
};

function variantsFor(options: TLabOptions, serverName: string): TServerVariant[] {
  const chosen = [...(options.variants?.['*'] ?? []), ...(options.variants?.[serverName] ?? [])];
  for (const variant of chosen) {
    if (!SERVER_VARIANTS.includes(variant)) throw new Error(`unknown variant ${variant}`);
  }
  return [...new Set(chosen)];
}

function checkOptions(options: TLabOptions): void {
  if (!Number.isInteger(options.servers) || options.servers < 1 || options.servers > MAX_SERVERS) {
    throw new Error(`servers must be 1–${MAX_SERVERS}`);
  }
  for (const key of Object.keys(options.variants ?? {})) {
    const index = Number(/^s(\d+)$/.exec(key)?.[1] ?? 0);
    if (key !== '*' && !(index >= 1 && index <= options.servers)) {
      throw new Error(`variants for unknown server ${key}`);
    }
  }
}

async function buildLab(id: number, options: TLabOptions): Promise<TLabStatus> {
  const names = labNames(id);
  const servers = Array.from({ length: options.servers }, (_, i) => {
    const server = names.server(i + 1);
    const variants = variantsFor(options, server.name);
    const domains = defaultDomains(server.name);
    if (variants.includes('existing-site')) domains.push(legacyDomain(server.name));
    if (variants.includes('hand-sites')) domains.push(handTlsDomain(server.name));
    return { server, variants, domains };
  });
  const domains: Record<string, string> = { [`upstream.${DOMAIN_SUFFIX}`]: names.infraAddress };
  for (const { server, domains: own } of servers) {
    for (const domain of own) domains[domain] = server.address;
  }

  await createBridge(names);
  await createMachineNetns(
    names,
    names.infraNetns,
    names.infraLink,
    names.infraAddress,
    INFRA_PORTS,
  );
  const listener = await makeListenerCertificate(names);
  const [infra, ...labServers] = await Promise.all([
    startInfraServices(names, domains, listener, {
      certificateValiditySeconds: options.certificateValiditySeconds,
      eabKeys: options.eabKeys,
      dns01: options.dns01 ? servers.map(({ server }) => server) : undefined,
    }),
    ...servers.map(({ server, variants, domains: own }) =>
      startServer(names, server, variants, own, listener.caCert),
    ),
  ]);
  await certifyHandSites(id, labServers, infra.acmeDirectoryUrl);
  return {
    id,
    servers: labServers,
    dnsServer: `${names.infraAddress}:53`,
    acmeDirectoryUrl: infra.acmeDirectoryUrl,
    caRootPath: infra.caRootPath,
    caListenerCertPath: listener.caCert,
    upstream: { address: names.infraAddress, port: UPSTREAM_PORT, name: UPSTREAM_NAME },
    domains,
    ...(infra.dns01 ? { dns01: infra.dns01 } : {}),
  };
}

function handle(status: TLabStatus): TLab {
  return {
    status,
    stop: () => stopLab(status.id),
    point: (domain, target) => pointDomain(status.id, domain, target),
    exec: (serverName, argv, input) => execInServer(serverName, argv, { lab: status.id, input }),
  };
}

/**
 * Starts a lab. Without `id` it takes the first free lab number from 1. It belongs to this
 * process (if the process dies, the next startLab sweeps it) unless `byHand`: then only `down`
 * removes it. With `id` (the CLI uses 0) whatever was left under that number is removed first.
 * The sweep and the claim happen under the start lock (start-lock.ts); building the lab does not,
 * so labs of several processes start side by side.
 */
export async function startLab(options: TLabOptions): Promise<TLab> {
  checkOptions(options);
  const owner = options.byHand ? BY_HAND : currentOwner();
  const id = await withStartLock(async () => {
    await sweepStaleLabs();
    if (options.id === undefined) return claimLabId(owner);
    const holder = liveOwnerPid(options.id);
    if (holder !== undefined && holder !== process.pid) {
      throw new Error(
        `lab ${options.id} belongs to running process ${holder}; choose another --lab`,
      );
    }
    await teardownLab(options.id);
    mkdirSync(LAB_ROOT, { recursive: true, mode: 0o700 });
    mkdirSync(labNames(options.id).dir, { mode: 0o700 });
    inMemory(labNames(options.id).dir);
    writeOwner(options.id, owner);
    return options.id;
  });
  try {
    const status = await buildLab(id, options);
    writeStatus(status);
    return handle(status);
  } catch (error) {
    await teardownLab(id);
    throw error;
  }
}

export function labStatus(id: number): TLabStatus | undefined {
  return readStatus(id);
}

export async function stopLab(id: number): Promise<void> {
  await teardownLab(id);
}

/** Changes or adds a DNS answer: `domain` now resolves to a server (by name) or an address. */
export async function pointDomain(id: number, domain: string, target: string): Promise<TLabStatus> {
  assertDomain(domain);
  const status = readStatus(id);
  if (!status) throw new Error(`lab ${id} is not running`);
  const server = status.servers.find((s) => s.name === target);
  const address = server?.address ?? target;
  if (!server && !/^198\.1[89]\.\d{1,3}\.\d{1,3}$/.test(address)) {
    throw new Error(`unknown server ${target} (expected a server name or a lab address)`);
  }
  status.domains[domain] = address;
  for (const s of status.servers) {
    s.domains = s.domains.filter((d) => d !== domain);
    if (s.address === address) s.domains.push(domain);
  }
  await restartDns(labNames(id), status.domains, status.dns01 !== undefined);
  writeStatus(status);
  return status;
}

export type { TExecOptions };
