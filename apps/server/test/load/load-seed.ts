import { randomBytes } from 'node:crypto';
import type { TDb } from '../../src/db/client';
import { createDeploymentsRepository } from '../../src/modules/deployments/deployments.repository';
import { createProxiesRepository } from '../../src/modules/proxies/proxies.repository';
import { snapshotOf } from '../../src/modules/proxies/proxy-view';
import { LoadClient, sessionAddress } from './load-http';

export interface TSeedShape {
  sessions: number;
  proxiesPerSession: number;
  /** Lines of the one finished deployment each proxy gets. */
  logLinesPerProxy: number;
}

/** What a session knows it owns, so every answer can be checked against it. */
export interface TSeededProxy {
  id: string;
  domain: string;
  serverIp: string;
  sshUser: string;
  sshPort: number;
  targetServer: string;
  logMessages: string[];
}

export interface TSeededSession {
  index: number;
  client: LoadClient;
  userId: string;
  proxies: TSeededProxy[];
}

// Nothing in the mix deploys (edit only stores). Should anything start a run all the same, it
// meets a refused connection on this machine (nothing listens on port 9): no traffic leaves it.
const SERVER_IP = '127.0.0.1';
const SSH_PORT = 9;
export const TARGETS = ['http://10.0.0.5:8080', 'http://10.0.0.5:8081'] as const;

// Shaped like the engine's own lines (connect, nginx, certbot, verify), so rows weigh the same.
const LINES = [
  'Connecting to 127.0.0.1:9 as root',
  'Connected; host key SHA256:q3PnJ7bYkU0bM3o7tqQ3QzZpVqg4o8l8F0c3r9i2XkE pinned',
  'Checking nginx: nginx version: nginx/1.22.1',
  'Writing /etc/nginx/sites-available/proxy-{domain} (HTTP, ACME webroot)',
  'nginx: the configuration file /etc/nginx/nginx.conf syntax is ok',
  'nginx: configuration file /etc/nginx/nginx.conf test is successful',
  'Reloading nginx',
  'Requesting a certificate for {domain} from Let’s Encrypt',
  'Successfully received certificate. Certificate is saved at: /etc/letsencrypt/live/{domain}/fullchain.pem',
  'Writing the final site: HTTPS on 443, port 80 redirects to HTTPS',
  'Checking https://{domain}/ answers through the new site: 200',
];

/** One finished deployment of `proxy` with `lines` log lines, as the deploy job leaves them. */
export async function seedLogs(
  db: TDb,
  requestedBy: string,
  proxy: Pick<TSeededProxy, 'id' | 'domain' | 'logMessages'>,
  lines: number,
) {
  const deployments = createDeploymentsRepository(db);
  const proxies = createProxiesRepository(db);
  const run = await deployments.insert({
    configurationId: proxy.id,
    trigger: 'deploy',
    requestedBy,
    language: 'en',
  });
  // Finished at once: a queued or running run with no job behind it is what the reaper looks for
  // (it would re-queue it), so the lines are written to a run that is already over.
  await deployments.update(run.id, { status: 'completed', startedAt: new Date() });
  for (let i = 0; i < lines; i++) {
    const message = LINES[i % LINES.length]!.replaceAll('{domain}', proxy.domain);
    await deployments.addLog({
      configurationId: proxy.id,
      deploymentId: run.id,
      level: i === lines - 1 ? 'success' : 'info',
      message,
    });
    proxy.logMessages.push(message);
  }
  // As the deploy job ends a successful run (deploy-job.ts finish).
  const now = new Date();
  const row = await proxies.findById(proxy.id);
  await proxies.update(proxy.id, {
    status: 'completed',
    sslConfigured: true,
    nginxConfigPath: `/etc/nginx/sites-available/proxy-${proxy.domain}`,
    lastDeployedAt: now,
    deployedSnapshot: row ? snapshotOf(row) : null,
  });
  await deployments.update(run.id, { finishedAt: now });
}

export function expectStatus(what: string, r: { status: number; json: unknown }, want: number) {
  if (r.status !== want) {
    throw new Error(`seeding: ${what} answered ${r.status}: ${JSON.stringify(r.json)}`);
  }
}

/**
 * One signed-in user with proxies and a finished deployment's log each. The user and the
 * proxies go through the API as the web app sends them (register, save); the log lines through
 * the deployments repository, as the deploy job writes them, since no SSH server is involved.
 */
export async function seedSession(
  base: URL,
  db: TDb,
  index: number,
  shape: TSeedShape,
  tag: string,
): Promise<TSeededSession> {
  const client = new LoadClient(base, sessionAddress(index));
  const username = `load_${tag}_${index}`;
  const registered = await client.write('POST', '/api/register', {
    username,
    email: `${username}@example.test`,
    password: 'Load1234x',
  });
  expectStatus('register', registered, 201);
  const session: TSeededSession = {
    index,
    client,
    userId: registered.json.user.id,
    proxies: [],
  };
  for (let p = 0; p < shape.proxiesPerSession; p++) {
    const input = {
      serverIp: SERVER_IP,
      domain: `s${index}-p${p}-${tag}.example.com`,
      sshUser: 'root',
      sshPort: SSH_PORT,
      sshPassword: 'Load-ssh-pass-1',
      email: `${username}@example.test`,
      targetServer: TARGETS[0],
    };
    const saved = await client.write('POST', '/api/proxy-configurations', input);
    expectStatus('save proxy', saved, 200);
    const proxy: TSeededProxy = { id: saved.json.id, ...input, logMessages: [] };
    session.proxies.push(proxy);
    await seedLogs(db, session.userId, proxy, shape.logLinesPerProxy);
  }
  return session;
}

/** Every session, `parallel` at a time (registration hashes a password: CPU-bound). */
export async function seedSessions(
  base: URL,
  db: TDb,
  shape: TSeedShape,
  parallel = 8,
): Promise<TSeededSession[]> {
  const tag = randomBytes(3).toString('hex');
  const sessions: TSeededSession[] = [];
  let next = 0;
  const worker = async () => {
    while (next < shape.sessions) {
      const index = next++;
      sessions[index] = await seedSession(base, db, index, shape, tag);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return sessions;
}
