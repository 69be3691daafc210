import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

type TBody = Record<string, unknown>;

/** A browser-like client over app.inject: keeps cookies and the CSRF token between calls. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(
    readonly app: FastifyInstance,
    readonly defaults: { headers?: Record<string, string>; remoteAddress?: string } = {},
  ) {}

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await this.app.inject({
      remoteAddress: this.defaults.remoteAddress,
      ...options,
      headers: {
        ...this.defaults.headers,
        ...(cookie ? { cookie } : {}),
        ...(options.headers as Record<string, string> | undefined),
      },
    });
    for (const c of response.cookies as { name: string; value: string; maxAge?: number }[]) {
      if (c.value === '' || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return response;
  }

  async fetchCsrfToken(): Promise<string> {
    const response = await this.request({ method: 'GET', url: '/api/csrf-token' });
    this.csrfToken = response.json().token;
    return this.csrfToken!;
  }

  /** A write with the held CSRF token (fetched first when none is held), as the web client. */
  async write(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: TBody,
    headers: Record<string, string> = {},
  ) {
    const token = this.csrfToken ?? (await this.fetchCsrfToken());
    return this.request({ method, url, payload, headers: { ...headers, 'x-csrf-token': token } });
  }

  async register(body: { username: string; email: string; password: string } & TBody) {
    const response = await this.write('POST', '/api/register', body);
    this.csrfToken = undefined;
    return response;
  }

  async login(identifier: string, password: string) {
    const response = await this.write('POST', '/api/login', { identifier, password });
    // The session (and its CSRF secret) is new after login.
    this.csrfToken = undefined;
    return response;
  }

  async logout() {
    const response = await this.write('POST', '/api/logout');
    this.csrfToken = undefined;
    return response;
  }

  me() {
    return this.request({ method: 'GET', url: '/api/auth/user' });
  }
}

/** The password of every test account: what the checks that ask for it again are given. */
export const TEST_PASSWORD = 'Secret123';

let counter = 0;
/** Distinct valid credentials for each call within a file. */
export function newCredentials(prefix = 'user') {
  counter += 1;
  const username = `${prefix}_${process.pid}_${counter}`;
  return { username, email: `${username}@example.test`, password: TEST_PASSWORD };
}
