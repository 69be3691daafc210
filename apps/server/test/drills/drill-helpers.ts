// Shared by the fault drills (*.lab.test.ts here): Portico as a real process driven through its
// HTTP API as the browser drives it, runs followed to their end, and the unrelated site on each
// lab server that every drill must leave serving what it served before.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLanguage } from '@portico/shared/api-error';
import { eq } from 'drizzle-orm';
import type { TLab, TLabServer } from '../../../../testbed/src/lab';
import { openDatabase } from '../../src/db/client';
import { proxyConfigurations } from '../../src/db/schema';
import {
  HttpClient,
  labEnv,
  startPortico,
  stopPortico,
  type TPorticoProcess,
} from '../support/lab-app-helpers';
import { httpGet, httpsGet } from '../support/lab-helpers';

/** One Portico process on its own data dir (PGlite); restartable on the same data. */
export class DrillPortico {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'portico-drill-'));
  process: TPorticoProcess | undefined;

  constructor(private readonly lab: TLab) {}

  get base(): string {
    if (!this.process) throw new Error('Portico is not running');
    return this.process.base;
  }

  async start(): Promise<string> {
    this.process = await startPortico({
      ...labEnv(this.lab.status),
      PORTICO_DATA_DIR: this.dataDir,
    });
    return this.process.base;
  }

  /** SIGKILL: no shutdown hook runs, as when the machine loses power or the OOM killer strikes. */
  kill(): Promise<void> {
    const p = this.process;
    this.process = undefined;
    return stopPortico(p, 'SIGKILL');
  }

  async close(): Promise<void> {
    await stopPortico(this.process);
    this.process = undefined;
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /**
   * While Portico is down: leaves a configuration as a deploy request that died between claiming
   * it (status deploying) and recording its run, a minute ago. No kill can be timed into that
   * window of one database write, so the drill writes the state the kill would leave.
   */
  async strandClaim(id: string): Promise<void> {
    if (this.process) throw new Error('Portico is running');
    const database = await openDatabase({ pgliteDir: join(this.dataDir, 'db') });
    try {
      await database.db
        .update(proxyConfigurations)
        .set({ status: 'deploying', updatedAt: new Date(Date.now() - 60_000) })
        .where(eq(proxyConfigurations.id, id));
    } finally {
      await database.close();
    }
  }

  /** The same signed-in browser, pointed at the current process. */
  client(from?: HttpClient): HttpClient {
    const client = new HttpClient(this.base);
    for (const [k, v] of from?.cookies ?? []) client.cookies.set(k, v);
    return client;
  }
}

export async function registered(base: string, username: string): Promise<HttpClient> {
  const client = new HttpClient(base);
  const r = await client.request('POST', '/api/register', {
    username,
    email: `${username}@example.com`,
    password: 'Secret123',
  });
  if (r.status !== 201) throw new Error(`register failed: ${JSON.stringify(r.json)}`);
  return client;
}

export function proxyBody(
  lab: TLab,
  server: TLabServer,
  domain: string,
  login: { user: string; password: string } = rootLogin(server),
) {
  return {
    serverIp: server.address,
    domain,
    sshUser: login.user,
    sshPassword: login.password,
    email: 'ops@example.com',
    targetServer: `http://${lab.status.upstream.address}:${lab.status.upstream.port}`,
  };
}

export function rootLogin(server: TLabServer) {
  const root = server.users.find((u) => u.name === 'root')!;
  return { user: 'root', password: root.password };
}

export async function saveProxy(client: HttpClient, body: ReturnType<typeof proxyBody>) {
  const saved = await client.request('POST', '/api/proxy-configurations', body);
  if (saved.status !== 200) throw new Error(`save failed: ${JSON.stringify(saved.json)}`);
  return saved.json.id as string;
}

/** Starts a run as the browser does, in `language` (the run keeps the requester's language). */
export async function startRun(
  client: HttpClient,
  id: string,
  language: TLanguage,
  trigger: 'deploy' | 'redeploy' = 'deploy',
): Promise<string> {
  const token = (await client.request('GET', '/api/csrf-token')).json.token as string;
  const path =
    trigger === 'deploy' ? `/api/deploy/${id}` : `/api/proxy-configurations/${id}/redeploy`;
  const response = await fetch(`${client.base}${path}`, {
    method: 'POST',
    headers: {
      cookie: client.cookieHeader(),
      'x-csrf-token': token,
      'accept-language': language,
    },
  });
  const json = (await response.json()) as { deploymentId?: string };
  if (response.status !== 202) throw new Error(`${trigger} refused: ${JSON.stringify(json)}`);
  return json.deploymentId as string;
}

export interface TLine {
  deploymentId: string | null;
  level: string;
  message: string;
}

/** The lines as a reader of `language` gets them (Portico's own words in that language). */
export async function logsOf(
  client: HttpClient,
  id: string,
  deploymentId?: string,
  language: TLanguage = 'en',
) {
  const response = await fetch(`${client.base}/api/deployment-logs/${id}`, {
    headers: { cookie: client.cookieHeader(), 'accept-language': language },
  });
  const all = (await response.json()) as TLine[];
  return deploymentId ? all.filter((l) => l.deploymentId === deploymentId) : all;
}

/** Waits until the configuration leaves `deploying`; a run that never ends fails the drill. */
export async function settled(client: HttpClient, id: string, timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const config = (await client.request('GET', `/api/proxy-configurations/${id}`)).json;
    if (config.status !== 'deploying') return config.status as string;
    if (Date.now() > deadline) {
      const lines = (await logsOf(client, id)).map((l) => l.message).join('\n');
      throw new Error(`still deploying after ${timeoutMs / 1000} s:\n${lines}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface TRunEnd {
  status: string;
  deploymentId: string;
  lines: TLine[];
  /** The run's last line: the failure message, or the success line. */
  last: TLine;
  text: string;
}

export async function runToEnd(
  client: HttpClient,
  id: string,
  language: TLanguage,
  trigger: 'deploy' | 'redeploy' = 'deploy',
): Promise<TRunEnd> {
  const deploymentId = await startRun(client, id, language, trigger);
  return endOf(client, id, deploymentId, language);
}

/** The run's end, its lines read in `language` (the requester's, as the browser reads them). */
export async function endOf(
  client: HttpClient,
  id: string,
  deploymentId: string,
  language: TLanguage = 'en',
) {
  const status = await settled(client, id);
  const lines = await logsOf(client, id, deploymentId, language);
  const text = lines.map((l) => `${l.level}: ${l.message}`).join('\n');
  return { status, deploymentId, lines, last: lines.at(-1)!, text };
}

/** What the unrelated site answers over HTTP (or why it does not), and its files' hashes. */
export async function unrelatedSite(lab: TLab, server: TLabServer) {
  const domain = server.domains.find((d) => d.startsWith('legacy.'));
  if (!domain) throw new Error(`${server.name} has no existing-site variant`);
  const answer = await httpGet(server.address, domain).then(
    (r) => `${r.status} ${r.body.trim()}`,
    (error: NodeJS.ErrnoException) => `no answer: ${error.code ?? error.message}`,
  );
  const files = await lab.exec(server.name, [
    'bash',
    '-c',
    'cat /etc/nginx/sites-available/legacy-site /var/www/legacy/index.html; readlink /etc/nginx/sites-enabled/legacy-site',
  ]);
  if (files.code !== 0) throw new Error(`unrelated site files missing: ${files.stderr}`);
  return { answer, files: createHash('sha256').update(files.stdout).digest('hex') };
}

export async function nginxTest(lab: TLab, server: TLabServer): Promise<string> {
  return (await lab.exec(server.name, ['bash', '-c', 'nginx -t 2>&1'])).stdout;
}

/** Attaches a custom script to a saved configuration, as the wizard's upload does. */
export async function uploadScript(client: HttpClient, id: string, name: string, text: string) {
  const token = (await client.request('GET', '/api/csrf-token')).json.token as string;
  const form = new FormData();
  form.append('script', new Blob([text], { type: 'text/x-sh' }), name);
  const response = await fetch(`${client.base}/api/upload-script?configurationId=${id}`, {
    method: 'POST',
    headers: { cookie: client.cookieHeader(), 'x-csrf-token': token },
    body: form,
  });
  if (response.status !== 200) throw new Error(`upload refused: ${await response.text()}`);
}

/** Every configuration of the signed-in user that is still `deploying`. */
export async function stillDeploying(client: HttpClient): Promise<string[]> {
  const rows = (await client.request('GET', '/api/user/proxy-configurations')).json as {
    domain: string;
    status: string;
  }[];
  return rows.filter((r) => r.status === 'deploying').map((r) => r.domain);
}

/** The proxied domain answers over verified HTTPS with the lab upstream's echo of its host. */
export async function servesHttps(lab: TLab, server: TLabServer, domain: string) {
  const page = await httpsGet(lab.status, server.address, domain, '/');
  if (page.status !== 200) throw new Error(`https://${domain}/ answered ${page.status}`);
  return JSON.parse(page.body).host as string;
}
