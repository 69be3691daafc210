import type { TApiError } from '@portico/shared/api-error';
import type { QueryFunction } from '@tanstack/react-query';

const answerSchemas = () => import('./api-schemas');

/** A non-OK answer: message is "status: text"; body is the parsed API error, if any. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: TApiError | undefined;

  constructor(status: number, message: string, body?: TApiError) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export const CSRF_TOKEN_ERROR = 'Failed to fetch CSRF token';

type TMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type TOn401 = 'returnNull' | 'throw';

type TApiClientOptions = {
  /** The current UI language, sent as Accept-Language so server messages come back in it. */
  getLanguage: () => string;
  fetch?: typeof fetch;
};

async function parseApiError(text: string): Promise<TApiError | undefined> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  try {
    const { ZApiError } = await answerSchemas();
    const parsed = ZApiError.safeParse(body);
    return parsed.success ? parsed.data : undefined;
  } catch {
    // The schema's chunk did not arrive: the error still carries its status and text.
    return undefined;
  }
}

async function errorFrom(res: Response, text: string): Promise<ApiError> {
  const body = await parseApiError(text);
  return new ApiError(res.status, `${res.status}: ${text || res.statusText}`, body);
}

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  throw await errorFrom(res, await res.text());
}

export function createApiClient(options: TApiClientOptions) {
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  // Held in memory only: a reload starts without one and fetches it before the first write.
  let csrfToken: string | null = null;
  let pending: Promise<string> | null = null;

  const baseHeaders = (): Record<string, string> => ({
    Accept: 'application/json',
    'Accept-Language': options.getLanguage(),
  });

  async function fetchCsrfToken(): Promise<string> {
    const res = await doFetch('/api/csrf-token', {
      credentials: 'include',
      headers: baseHeaders(),
    });
    // Checked here (as ZCsrfTokenResponse would), not through the answer schemas' chunk: the
    // first write, a sign-in most often, waits for this token, and fetching that chunk first
    // cost it a round trip.
    const body = (await res.json().catch(() => null)) as { token?: unknown } | null;
    if (!res.ok || typeof body?.token !== 'string') throw new Error(CSRF_TOKEN_ERROR);
    return body.token;
  }

  async function getCsrfToken(): Promise<string> {
    if (csrfToken) return csrfToken;
    // Concurrent writes share one token request.
    pending ??= fetchCsrfToken().finally(() => {
      pending = null;
    });
    csrfToken = await pending;
    return csrfToken;
  }

  function send(method: TMethod, url: string, data: unknown, token: string) {
    const headers = { ...baseHeaders(), 'X-CSRF-Token': token };
    if (data === undefined) return doFetch(url, { method, headers, credentials: 'include' });
    // A form (a file upload) goes as multipart; fetch writes its Content-Type with the boundary.
    if (data instanceof FormData)
      return doFetch(url, { method, headers, body: data, credentials: 'include' });
    return doFetch(url, {
      method,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(data),
      credentials: 'include',
    });
  }

  /**
   * Sends a request; writes carry the CSRF token and are retried once on a CSRF refusal. `data`
   * is sent as JSON, or as it is when it is a FormData.
   */
  async function request(method: TMethod, url: string, data?: unknown): Promise<Response> {
    if (method === 'GET') {
      const res = await doFetch(url, { headers: baseHeaders(), credentials: 'include' });
      await throwIfResNotOk(res);
      return res;
    }
    let res = await send(method, url, data, await getCsrfToken());
    if (res.status === 403) {
      const text = await res.text();
      if (!/csrf/i.test(text)) throw await errorFrom(res, text);
      csrfToken = null;
      res = await send(method, url, data, await getCsrfToken());
    }
    await throwIfResNotOk(res);
    return res;
  }

  /** Like request, parsed as JSON (an empty body gives undefined). */
  async function requestJson<T>(method: TMethod, url: string, data?: unknown): Promise<T> {
    const res = await request(method, url, data);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The generic read: GET on the query key parts joined with '/', parsed as JSON. */
  function getQueryFn<T>({ on401 }: { on401: TOn401 }): QueryFunction<T | null> {
    return async ({ queryKey, signal }) => {
      const res = await doFetch(queryKey.join('/'), {
        headers: baseHeaders(),
        credentials: 'include',
        signal,
      });
      if (on401 === 'returnNull' && res.status === 401) return null;
      await throwIfResNotOk(res);
      return (await res.json()) as T;
    };
  }

  return {
    request,
    requestJson,
    getQueryFn,
    /** Forget the token, e.g. when the session changed at login or logout. */
    resetCsrfToken: () => {
      csrfToken = null;
    },
  };
}
