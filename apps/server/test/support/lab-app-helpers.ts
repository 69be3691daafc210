// Shared by the deployment lab tests: Portico as a real process, and a fetch client with cookies.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { TLabServer, TLabStatus } from '../../../../testbed/src/lab';
import { SERVER_ROOT } from './spawn';
import { entryArgs } from './test-bundle';

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

export function labEnv(status: TLabStatus): Record<string, string> {
  return {
    ACME_DIRECTORY_URL: status.acmeDirectoryUrl,
    PORTICO_EXTRA_CA_FILE: status.caRootPath,
    PORTICO_DNS_SERVERS: status.dnsServer,
  };
}

export interface TPorticoProcess {
  child: ChildProcess;
  base: string;
  output(): string;
}

/** Starts src/main.ts (the run's bundle, else through tsx) and resolves once it listens. */
export async function startPortico(
  env: Record<string, string>,
  /** Extra node flags (the deploy bench passes BENCH_NODE_ARGS, e.g. to profile). */
  nodeArgs: string[] = [],
  /**
   * How long it may take to listen. A first start (initdb, every migration) took over 60 s on
   * this 2-core machine at load 20-30 (secrets-journey.lab.test.ts, both with lab files one and
   * two at a time); it stays inside the lab tier's 180 s hook timeout. A process that exits
   * fails at once.
   */
  startTimeoutMs = 150_000,
): Promise<TPorticoProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, ...entryArgs('src/main.ts')], {
    cwd: SERVER_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const deadline = Date.now() + startTimeoutMs;
  while (!output.includes('Portico is listening')) {
    if (child.exitCode !== null) throw new Error(`Portico exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`Portico did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base: `http://127.0.0.1:${port}`, output: () => output };
}

export async function stopPortico(
  p: TPorticoProcess | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
) {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = once(p.child, 'exit');
  p.child.kill(signal);
  await exited;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read fields of whatever the API answered
type TJson = any;

/** A browser-like client over real HTTP: cookies and the CSRF token kept between calls. */
export class HttpClient {
  readonly cookies = new Map<string, string>();
  private token: string | undefined;

  constructor(readonly base: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: TJson }> {
    if (method !== 'GET' && !this.token) {
      this.token = (await this.request('GET', '/api/csrf-token')).json.token;
    }
    // After the token call: that call may have started the session.
    const headers: Record<string, string> = {
      cookie: this.cookieHeader(),
      'accept-language': 'en',
    };
    if (method !== 'GET') headers['x-csrf-token'] = this.token!;
    // A form (an upload) sets its own multipart content type.
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    for (const c of response.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const text = await response.text();
    if (path === '/api/register' || path === '/api/login') this.token = undefined;
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  }
}

/**
 * Registers `username`, saves `proxy` and starts its deployment; resolves with the configuration's
 * id once the run has written a few lines (it is under way on the server). With `script` (see
 * testbed/src/hold-script.ts) the run then waits at its script step, so it is still under way
 * whatever the test does next, until the test releases it.
 */
export async function deploymentUnderWay(
  client: HttpClient,
  username: string,
  proxy: Record<string, unknown>,
  script?: string,
): Promise<string> {
  const registered = await client.request('POST', '/api/register', {
    username,
    email: `${username.replace(/_/g, '-')}@example.com`,
    password: 'Secret123',
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  const saved = await client.request('POST', '/api/proxy-configurations', proxy);
  if (saved.status !== 200) throw new Error(`save answered ${saved.status}`);
  const id = saved.json.id as string;
  if (script !== undefined) {
    const form = new FormData();
    form.append('script', new Blob([script], { type: 'application/x-sh' }), 'hold.sh');
    const uploaded = await client.request('POST', `/api/upload-script?configurationId=${id}`, form);
    if (uploaded.status !== 200) throw new Error(`upload answered ${uploaded.status}`);
  }
  const started = await client.request('POST', `/api/deploy/${id}`);
  if (started.status !== 202) throw new Error(`deploy answered ${started.status}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const logs = (await client.request('GET', `/api/deployment-logs/${id}`)).json as unknown[];
    if (logs.length >= 4) return id;
    if (Date.now() > deadline) throw new Error('the run never started');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The configuration's status once it is no longer deploying; fails if that takes 2 minutes from `since`. */
export async function statusWithin2Minutes(
  client: HttpClient,
  id: string,
  since: number,
): Promise<string> {
  for (;;) {
    const status = (await client.request('GET', `/api/proxy-configurations/${id}`)).json.status;
    if (status !== 'deploying') return status as string;
    if (Date.now() - since > 120_000) throw new Error('still deploying 2 minutes on');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** What the API saves for a proxy to `domain` on a lab server, as root, to the lab's upstream. */
export function rootProxy(status: TLabStatus, server: TLabServer, domain: string) {
  const root = server.users.find((u) => u.name === 'root')!;
  return {
    serverIp: server.address,
    domain,
    sshUser: 'root',
    sshPassword: root.password,
    email: 'ops@example.com',
    targetServer: `http://${status.upstream.address}:${status.upstream.port}`,
  };
}
