// Steps of the secrets journey that are not about secrets: a deployment followed over the log
// socket as the wizard does, and a byte flipped in a stored ciphertext while Portico is stopped.
import { join } from 'node:path';
import type { TLanguage } from '@portico/shared/api-error';
import type { TWsMessage } from '@portico/shared/proxy/api';
import { eq } from 'drizzle-orm';
import type { TLab } from '../../../../testbed/src/lab';
import { openDatabase } from '../../src/db/client';
import { proxyConfigurations } from '../../src/db/schema';
import type { HttpClient } from '../support/lab-app-helpers';
import { runTs } from '../support/spawn';
import { progressLines, watch } from '../support/ws-test-helpers';

/**
 * Starts a run with POST `path` (deploy or redeploy) in `language`, follows it on the socket
 * until it ends, and returns its status and lines. Every socket message is kept in `into`.
 */
export async function followRun(
  client: HttpClient,
  id: string,
  path: string,
  into: TWsMessage[],
  language: TLanguage = 'en',
): Promise<{ status: string; lines: string[] }> {
  // The socket of a reader of `language`, as the wizard of the requester opens it.
  const socket = watch(
    client.base,
    id,
    { cookie: client.cookieHeader(), origin: client.base },
    `&lang=${language}`,
  );
  try {
    await socket.waitFor((m) => m.some((x) => x.type === 'deployment_status'));
    const token = (await client.request('GET', '/api/csrf-token')).json.token as string;
    const started = await fetch(`${client.base}${path}`, {
      method: 'POST',
      headers: {
        cookie: client.cookieHeader(),
        'x-csrf-token': token,
        'accept-language': language,
      },
    });
    const body = (await started.json()) as { deploymentId?: string };
    if (started.status !== 202)
      throw new Error(`${path}: ${started.status} ${JSON.stringify(body)}`);
    const deploymentId = String(body.deploymentId);
    const ended = (m: TWsMessage) =>
      m.type === 'deployment_status' &&
      m.data.deploymentId === deploymentId &&
      ['completed', 'failed'].includes(m.data.status);
    await socket.waitFor((messages) => messages.some(ended), 170_000);
    const end = socket.messages.find(ended) as Extract<TWsMessage, { type: 'deployment_status' }>;
    const lines = progressLines(socket.messages)
      .filter((l) => l.deploymentId === deploymentId)
      .map((l) => l.message);
    return { status: end.data.status, lines };
  } finally {
    into.push(...socket.messages);
    socket.close();
  }
}

/**
 * Flips one bit of the GCM tag of a configuration's stored SSH password, straight in the PGlite
 * files (Portico must be stopped: the data dir has one writer). Stored form:
 * base64(version | iv(12) | tag(16) | ciphertext).
 */
/** Returns the altered stored form. */
export async function tamperStoredPassword(dataDir: string, id: string): Promise<string> {
  const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
  try {
    const { db } = database;
    const [row] = await db
      .select({ stored: proxyConfigurations.sshPasswordEnc })
      .from(proxyConfigurations)
      .where(eq(proxyConfigurations.id, id));
    if (!row?.stored) throw new Error('no stored password to tamper with');
    const raw = Buffer.from(row.stored, 'base64');
    const at = 1 + 12 + 5;
    raw.writeUInt8(raw.readUInt8(at) ^ 0x01, at);
    const altered = raw.toString('base64');
    await db
      .update(proxyConfigurations)
      .set({ sshPasswordEnc: altered })
      .where(eq(proxyConfigurations.id, id));
    return altered;
  } finally {
    await database.close();
  }
}

/**
 * Samples the command line and environment of every process on a lab server until stopped: a
 * password handed to a remote command as an argument or variable would be visible to every user
 * of that server (ps, /proc). Sampling can miss a short process; a hit is never a false alarm.
 */
export function sampleServerProcesses(lab: TLab, serverName: string) {
  const samples: string[] = [];
  let running = true;
  const script =
    'for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline; echo; tr "\\0" " " < $p/environ; echo; done 2>/dev/null';
  const loop = (async () => {
    while (running) {
      const r = await lab.exec(serverName, ['sh', '-c', script]);
      samples.push(r.stdout);
    }
  })();
  return {
    async stop(): Promise<string[]> {
      running = false;
      await loop;
      return samples;
    },
  };
}

/**
 * Requests that carry the password and are refused before anything runs: malformed JSON, a bad
 * address, a bad port, a password over the length limit. Returns their statuses.
 */
export async function sendRefusedRequests(
  client: HttpClient,
  serverIp: string,
  password: string,
  targetServer: string,
): Promise<number[]> {
  const token = (await client.request('GET', '/api/csrf-token')).json.token as string;
  const malformed = await fetch(`${client.base}/api/test-ssh`, {
    method: 'POST',
    headers: {
      cookie: client.cookieHeader(),
      'x-csrf-token': token,
      'content-type': 'application/json',
    },
    body: `{"serverIp":"${serverIp}","username":"deploy","password":${JSON.stringify(password)}`,
  });
  const bad = { serverIp, username: 'deploy', password };
  const refused = [
    await client.request('POST', '/api/test-ssh', { ...bad, serverIp: `${serverIp};id` }),
    await client.request('POST', '/api/test-ssh', { ...bad, port: 'x' }),
    await client.request('POST', '/api/proxy-configurations', {
      serverIp,
      domain: 'not a domain',
      sshUser: 'deploy',
      sshPassword: `${password}${'x'.repeat(1100)}`,
      email: 'ops@example.com',
      targetServer,
    }),
  ];
  return [malformed.status, ...refused.map((r) => r.status)];
}

export const AUDITOR = {
  username: 'auditor',
  email: 'auditor@example.com',
  password: 'Auditor-123',
};

/** An administrator made the only way there is, the CLI (Portico stopped: one writer). */
export async function createAdminWithCli(dataDir: string): Promise<string> {
  const made = await runTs(
    'src/cli.ts',
    ['user', 'create', AUDITOR.username, '--email', AUDITOR.email, '--admin'],
    { env: { PORTICO_DATA_DIR: dataDir }, input: `${AUDITOR.password}\n` },
  );
  if (made.code !== 0) throw new Error(`portico user create: ${made.stderr}`);
  return `${made.stdout}${made.stderr}`;
}

/** Everything an administrator's screens read about users, proxies and the audit trail. */
export async function readAsAdmin(admin: HttpClient): Promise<number[]> {
  const paths = [
    '/api/admin/stats/users',
    '/api/admin/stats/proxies-by-user',
    '/api/admin/all-proxies',
    '/api/admin/users',
    '/api/admin/audit-log',
  ];
  const answers = [];
  for (const path of paths) answers.push((await admin.request('GET', path)).status);
  return answers;
}
