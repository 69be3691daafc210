import { Agent, request } from 'node:http';

export interface TLoadResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the mix checks fields of whatever the API answered
  json: any;
}

/**
 * The source address of session `index`: each session is its own client on 127.0.0.0/8, as 200
 * browsers would be, so the per-address register limit applies to each one separately.
 */
export function sessionAddress(index: number): string {
  return `127.1.${Math.floor(index / 250)}.${(index % 250) + 1}`;
}

/**
 * One signed-in browser over real HTTP: its own keep-alive connection from its own loopback
 * address, its cookies, and the CSRF token held in memory and sent on writes (as the web app does). Plain
 * node:http rather than fetch: the load generator must cost as little CPU as it can, and fetch
 * cannot pick the source address.
 */
export class LoadClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;
  private readonly agent: Agent;

  constructor(
    readonly base: URL,
    readonly localAddress: string,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: 1 });
  }

  /** The same browser (cookies, token, address) talking to another server: the floor. */
  pointedAt(base: URL): LoadClient {
    const copy = new LoadClient(base, this.localAddress);
    for (const [k, v] of this.cookies) copy.cookies.set(k, v);
    copy.csrfToken = this.csrfToken;
    return copy;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  close(): void {
    this.agent.destroy();
  }

  async get(path: string): Promise<TLoadResponse> {
    return this.send('GET', path);
  }

  /** A write with the held token, fetched first when none is held, as the web client does. */
  async write(
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<TLoadResponse> {
    this.csrfToken ??= (await this.get('/api/csrf-token')).json.token;
    const response = await this.send(method, path, body);
    // A new session (register) has a new CSRF secret.
    if (path === '/api/register') this.csrfToken = undefined;
    return response;
  }

  private send(method: string, path: string, body?: unknown): Promise<TLoadResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { 'accept-language': 'en' };
    if (this.cookies.size > 0) {
      headers.cookie = this.cookieHeader();
    }
    if (method !== 'GET' && this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(path, this.base),
        { method, headers, agent: this.agent, localAddress: this.localAddress },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            this.keepCookies(res.headers['set-cookie']);
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined });
            } catch {
              resolve({ status: res.statusCode ?? 0, json: text });
            }
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  private keepCookies(setCookie: string[] | undefined): void {
    for (const c of setCookie ?? []) {
      const [pair = ''] = c.split(';', 1);
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (value === '' || /;\s*max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
