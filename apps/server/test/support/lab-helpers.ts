// Shared by the engine's lab tests (*.lab.test.ts): deploy inputs for a lab server, a log
// capture, and HTTP(S)/WebSocket clients that reach a lab domain at a given address.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import {
  startLab,
  type TLab,
  type TLabOptions,
  type TLabServer,
  type TLabStatus,
} from '../../../../testbed/src/lab';
import { NginxDumpCache } from '../../src/deploy/engine';
import type { TDeployInput, TEngineContext } from '../../src/deploy/engine/types';

export interface TCapturedLog {
  lines: { level: string; message: string }[];
  text(): string;
}

export function captureLog(): TCapturedLog {
  const lines: { level: string; message: string }[] = [];
  return { lines, text: () => lines.map((l) => `${l.level}: ${l.message}`).join('\n') };
}

/** A lab for a test file: started before its tests, stopped after them. */
export function labPerFile(options: TLabOptions): { readonly lab: TLab; readonly s1: TLabServer } {
  let lab: TLab | undefined;
  beforeAll(async () => {
    lab = await startLab(options);
  });
  afterAll(async () => {
    await lab?.stop();
  });
  return {
    get lab() {
      return lab!;
    },
    get s1() {
      return lab!.status.servers[0]!;
    },
  };
}

/** A lab of one server for a test file. */
export function oneServerLab(): { readonly lab: TLab; readonly s1: TLabServer } {
  return labPerFile({ servers: 1 });
}

// One kept-dump cache per lab, as one Portico process has one (services.ts): a file's engine
// runs on a lab find the dump the last run there kept.
const dumpsOfLab = new WeakMap<TLabStatus, NginxDumpCache>();

export function engineContext(status: TLabStatus, log: TCapturedLog): TEngineContext {
  let dumps = dumpsOfLab.get(status);
  if (!dumps) {
    dumps = new NginxDumpCache();
    dumpsOfLab.set(status, dumps);
  }
  return {
    settings: {
      acmeDirectoryUrl: status.acmeDirectoryUrl,
      extraCaFile: status.caRootPath,
      dnsServers: [status.dnsServer],
      dumps,
    },
    log: (level, message) => {
      log.lines.push({ level, message });
    },
  };
}

export function deployInput(
  status: TLabStatus,
  server: TLabServer,
  user: 'root' | 'deploy',
  domain: string,
  overrides: Partial<TDeployInput> = {},
): TDeployInput {
  const u = server.users.find((x) => x.name === user)!;
  return {
    domain,
    serverIp: server.address,
    sshPort: server.sshPort,
    sshUser: u.name,
    auth: { password: u.password },
    expectedFingerprint: server.hostKeyFingerprint,
    email: 'ops@example.com',
    targetServer: `http://${status.upstream.address}:${status.upstream.port}`,
    ...overrides,
  };
}

/** SHA-256 and mtime of every file under /etc/nginx and /etc/letsencrypt/renewal, and links. */
/**
 * A shell snippet that writes /tmp/fake/certbot on a lab server: a python script named certbot
 * that sleeps $1 seconds, standing for a certbot at work (certbot runs as "python3 …/certbot").
 */
export const FAKE_CERTBOT = `mkdir -p /tmp/fake && printf '#!/usr/bin/python3\\nimport time\\ntime.sleep(%s)\\n' "$1" > /tmp/fake/certbot && chmod +x /tmp/fake/certbot`;

/** Starts a fake certbot (FAKE_CERTBOT) on a lab server, detached, for `seconds`. */
export async function startFakeCertbot(lab: TLab, server: string, seconds: number): Promise<void> {
  const started = await lab.exec(server, [
    'bash',
    '-c',
    `${FAKE_CERTBOT}\nsetsid /tmp/fake/certbot >/dev/null 2>&1 &`,
    'fake',
    String(seconds),
  ]);
  if (started.code !== 0) throw new Error(`fake certbot: ${started.stderr}`);
}

export async function remoteFileSums(lab: TLab, server: string): Promise<string> {
  const r = await lab.exec(server, [
    'bash',
    '-c',
    'find /etc/nginx /etc/letsencrypt/renewal -type f -printf "%T@ %m %p\\n" | sort; find /etc/nginx /etc/letsencrypt/renewal -type f -exec sha256sum {} + | sort; find /etc/nginx -type l -printf "%p -> %l\\n" | sort',
  ]);
  if (r.code !== 0) throw new Error(`checksums failed: ${r.stderr}`);
  return r.stdout;
}

function lookupTo(address: string): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  }) as unknown as LookupFunction;
}

export interface THttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  issuer?: string;
}

/** GET over HTTPS to `address` as `domain`, trusting only the lab's Pebble root. */
export function httpsGet(
  status: TLabStatus,
  address: string,
  domain: string,
  path = '/',
  headers: Record<string, string> = {},
): Promise<THttpAnswer> {
  const ca = readFileSync(status.caRootPath, 'utf8');
  return new Promise((resolve, reject) => {
    const request = https.get(
      {
        host: domain,
        lookup: lookupTo(address),
        servername: domain,
        path,
        ca,
        agent: false,
        headers,
      },
      (response) => {
        const socket = response.socket as import('node:tls').TLSSocket;
        const cn = socket.getPeerCertificate?.()?.issuer?.CN;
        const issuer = Array.isArray(cn) ? cn.join(' ') : cn;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, issuer }),
        );
      },
    );
    request.on('error', reject);
  });
}

/** GET over plain HTTP to `address` as `domain`. */
export function httpGet(address: string, domain: string, path = '/'): Promise<THttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: address, port: 80, path, headers: { host: domain }, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on('error', reject);
  });
}

/** Opens wss://domain/path at `address`, returns the greeting and the echo of one message. */
export function webSocketEcho(
  status: TLabStatus,
  address: string,
  domain: string,
  message: string,
): Promise<{ greeting: string; echo: string }> {
  const ca = readFileSync(status.caRootPath, 'utf8');
  return new Promise((resolve, reject) => {
    // The URL's host name is the SNI name; only the address comes from `lookup`.
    const socket = new WebSocket(`wss://${domain}/socket`, { ca, lookup: lookupTo(address) });
    const received: string[] = [];
    socket.on('open', () => socket.send(message));
    socket.on('message', (data) => {
      received.push(String(data));
      if (received.length === 2) {
        socket.close();
        resolve({ greeting: received[0]!, echo: received[1]! });
      }
    });
    socket.on('error', reject);
  });
}
