// Readiness probes run from the root namespace, which reaches the lab over its bridge.
import { Resolver } from 'node:dns/promises';
import https from 'node:https';
import net from 'node:net';

export function tcpOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: timeoutMs });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

export function httpsGet(
  url: string,
  ca: string | Buffer,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = https.get(url, { ca, timeout: 2000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`timeout fetching ${url}`)));
    request.on('error', reject);
  });
}

/** The A records `server` (host:port) gives for `domain`; [] when it does not answer. */
export async function resolveA(server: string, domain: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: 300, tries: 1 });
  resolver.setServers([server]);
  try {
    return await resolver.resolve4(domain);
  } catch {
    return [];
  }
}
