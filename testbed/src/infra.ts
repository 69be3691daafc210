// The infra namespace: DNS, the ACME CA (Pebble) and the upstream service.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { startBind } from './bind';
import { startDns } from './dns';
import {
  ACME_MANAGEMENT_PORT,
  ACME_PORT,
  type TLabNames,
  UPSTREAM_NAME,
  UPSTREAM_PORT,
} from './names';
import { httpsGet, tcpOpen } from './probe';
import { LAB_ENV, runOk, startDaemon, waitFor } from './run';
import type { TLabDns01 } from './types';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type TInfraPaths = {
  caRootPath: string;
  caListenerCertPath: string;
  acmeDirectoryUrl: string;
};

export type TListener = { caCert: string; key: string; cert: string };

/** Pebble ships no certificate for its own HTTPS listener: make a small CA and one at start. */
export async function makeListenerCertificate(names: TLabNames): Promise<TListener> {
  mkdirSync(names.infraDir, { recursive: true, mode: 0o700 });
  const dir = names.infraDir;
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '30'];
  const caKey = path.join(dir, 'listener-ca.key');
  const caCert = path.join(dir, 'listener-ca.pem');
  const key = path.join(dir, 'listener.key');
  const cert = path.join(dir, 'listener.pem');
  await runOk('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    caKey,
    '-out',
    caCert,
    '-subj',
    `/CN=Portico lab ${names.id} ACME listener CA`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await runOk('openssl', [
    'req',
    '-x509',
    '-CA',
    caCert,
    '-CAkey',
    caKey,
    ...ec,
    '-keyout',
    key,
    '-out',
    cert,
    '-subj',
    `/CN=${names.infraAddress}`,
    '-addext',
    `subjectAltName=IP:${names.infraAddress}`,
    '-addext',
    'basicConstraints=critical,CA:FALSE',
  ]);
  return { caCert, key, cert };
}

function inInfra(names: TLabNames, argv: string[]): string[] {
  return ['netns', 'exec', names.infraNetns, ...argv];
}

async function startPebble(
  names: TLabNames,
  listener: { key: string; cert: string },
  certificateValiditySeconds: number | undefined,
  eabKeys: Record<string, string> | undefined,
) {
  const config = path.join(names.infraDir, 'pebble.json');
  const pebble = {
    listenAddress: `${names.infraAddress}:${ACME_PORT}`,
    managementListenAddress: `${names.infraAddress}:${ACME_MANAGEMENT_PORT}`,
    certificate: listener.cert,
    privateKey: listener.key,
    httpPort: 80,
    tlsPort: 443,
    ocspResponderURL: '',
    externalAccountBindingRequired: eabKeys !== undefined,
    ...(eabKeys ? { externalAccountMACKeys: eabKeys } : {}),
    ...(certificateValiditySeconds
      ? { certificateValidityPeriod: certificateValiditySeconds }
      : {}),
  };
  writeFileSync(config, JSON.stringify({ pebble }, null, 2));
  const argv = ['pebble', '-config', config, '-dnsserver', `${names.infraAddress}:53`];
  startDaemon('ip', inInfra(names, argv), {
    logFile: path.join(names.infraDir, 'pebble.log'),
    env: {
      ...LAB_ENV,
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_VA_ALWAYS_VALID: '0',
      PEBBLE_WFE_NONCEREJECT: '0',
    },
  });
}

/** Pebble makes a new issuing root at every start; clients must trust the one it serves. */
async function fetchPebbleRoot(names: TLabNames, listenerCa: string): Promise<string> {
  const ca = readFileSync(listenerCa);
  const url = `https://${names.infraAddress}:${ACME_MANAGEMENT_PORT}/roots/0`;
  let pem = '';
  await waitFor(
    async () => {
      try {
        const response = await httpsGet(url, ca);
        pem = response.body.toString();
        return response.status === 200 && pem.includes('BEGIN CERTIFICATE');
      } catch {
        return false;
      }
    },
    10_000,
    () => `Pebble did not serve its root; see ${path.join(names.infraDir, 'pebble.log')}`,
  );
  const file = path.join(names.infraDir, 'pebble-root.pem');
  writeFileSync(file, pem);
  return file;
}

/** Bundled with esbuild and run by plain node: a third of tsx's start-up time and half its memory. */
async function startUpstream(names: TLabNames): Promise<void> {
  const bundle = path.join(names.infraDir, 'upstream.cjs');
  await build({
    entryPoints: [path.join(REPO_ROOT, 'testbed/src/upstream-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: bundle,
    // Optional native speed-ups ws tries to load; absent is fine.
    external: ['bufferutil', 'utf-8-validate'],
    logLevel: 'error',
  });
  const argv = [process.execPath, bundle, '--host', names.infraAddress];
  argv.push('--port', String(UPSTREAM_PORT), '--name', UPSTREAM_NAME);
  startDaemon('ip', inInfra(names, argv), {
    logFile: path.join(names.infraDir, 'upstream.log'),
    cwd: REPO_ROOT,
  });
  await waitFor(
    () => tcpOpen(names.infraAddress, UPSTREAM_PORT),
    15_000,
    () => `upstream did not start; see ${path.join(names.infraDir, 'upstream.log')}`,
  );
}

export type TInfraOptions = {
  certificateValiditySeconds?: number;
  eabKeys?: Record<string, string>;
  /** The servers bind9 answers for; without it no bind9 starts. */
  dns01?: { name: string; address: string }[];
};

export async function startInfraServices(
  names: TLabNames,
  domains: Record<string, string>,
  listener: TListener,
  options: TInfraOptions,
): Promise<Omit<TInfraPaths, 'caListenerCertPath'> & { dns01?: TLabDns01 }> {
  await startPebble(names, listener, options.certificateValiditySeconds, options.eabKeys);
  const [caRootPath, , , dns01] = await Promise.all([
    fetchPebbleRoot(names, listener.caCert),
    startDns(names, domains, options.dns01 !== undefined),
    startUpstream(names),
    options.dns01 ? startBind(names, options.dns01) : undefined,
  ]);
  return {
    caRootPath,
    acmeDirectoryUrl: `https://${names.infraAddress}:${ACME_PORT}/dir`,
    ...(dns01 ? { dns01 } : {}),
  };
}
