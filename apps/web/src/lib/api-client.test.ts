import { describe, expect, it } from 'vitest';
import { ApiError, CSRF_TOKEN_ERROR, createApiClient } from './api-client';

type TCall = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  rawBody?: unknown;
};
type TReply = { status: number; body?: unknown; statusText?: string };

/** A fake fetch answering from a per-call script and recording what was sent. */
function fakeFetch(script: (call: TCall, index: number) => TReply) {
  const calls: TCall[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: TCall = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === 'string' ? init.body : undefined,
      rawBody: init?.body,
    };
    calls.push(call);
    const reply = script(call, calls.length - 1);
    const text =
      reply.body === undefined
        ? ''
        : typeof reply.body === 'string'
          ? reply.body
          : JSON.stringify(reply.body);
    return new Response(text || null, { status: reply.status, statusText: reply.statusText });
  }) as typeof fetch;
  return { calls, fetchImpl };
}

const csrfRefusal = { statusCode: 403, code: 'csrf', message: 'Invalid or missing CSRF token' };

describe('api client writes', () => {
  it('fetches the CSRF token once and reuses it for later writes', async () => {
    let issued = 0;
    const { calls, fetchImpl } = fakeFetch((call) => {
      if (call.url === '/api/csrf-token') return { status: 200, body: { token: `t${++issued}` } };
      return { status: 200, body: { ok: true } };
    });
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    await api.request('POST', '/api/a', { x: 1 });
    await api.request('PUT', '/api/b', { y: 2 });
    await api.request('DELETE', '/api/c');
    expect(calls.filter((c) => c.url === '/api/csrf-token')).toHaveLength(1);
    const writes = calls.filter((c) => c.url !== '/api/csrf-token');
    expect(writes.map((c) => c.headers['X-CSRF-Token'])).toEqual(['t1', 't1', 't1']);
    expect(writes[0]?.body).toBe(JSON.stringify({ x: 1 }));
    expect(writes[0]?.headers['Content-Type']).toBe('application/json');
    // A write without a body sends no JSON content type (Fastify refuses an empty JSON body).
    expect(writes[2]?.headers['Content-Type']).toBeUndefined();
  });

  it('shares one token request between concurrent writes', async () => {
    const { calls, fetchImpl } = fakeFetch((call) =>
      call.url === '/api/csrf-token'
        ? { status: 200, body: { token: 'shared' } }
        : { status: 200, body: {} },
    );
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    await Promise.all([api.request('POST', '/api/a', {}), api.request('POST', '/api/b', {})]);
    expect(calls.filter((c) => c.url === '/api/csrf-token')).toHaveLength(1);
  });

  it('on a 403 mentioning CSRF discards the token, fetches a new one and retries once', async () => {
    let issued = 0;
    const { calls, fetchImpl } = fakeFetch((call) => {
      if (call.url === '/api/csrf-token') return { status: 200, body: { token: `t${++issued}` } };
      return call.headers['X-CSRF-Token'] === 't2'
        ? { status: 200, body: { done: true } }
        : { status: 403, body: csrfRefusal };
    });
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    const result = await api.requestJson<{ done: boolean }>('POST', '/api/login', { a: 1 });
    expect(result).toEqual({ done: true });
    expect(calls.map((c) => `${c.url} ${c.headers['X-CSRF-Token'] ?? ''}`.trim())).toEqual([
      '/api/csrf-token',
      '/api/login t1',
      '/api/csrf-token',
      '/api/login t2',
    ]);
  });

  it('sends a form as it is (multipart, no JSON type), with the token, and again on a CSRF refusal', async () => {
    let issued = 0;
    const { calls, fetchImpl } = fakeFetch((call) => {
      if (call.url === '/api/csrf-token') return { status: 200, body: { token: `t${++issued}` } };
      return call.headers['X-CSRF-Token'] === 't2'
        ? { status: 200, body: { filename: 'post.sh' } }
        : { status: 403, body: csrfRefusal };
    });
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    const form = new FormData();
    form.append('script', new Blob(['echo hi\n']), 'post.sh');
    const result = await api.requestJson<{ filename: string }>('POST', '/api/upload-script', form);
    expect(result).toEqual({ filename: 'post.sh' });
    const writes = calls.filter((c) => c.url === '/api/upload-script');
    expect(writes.map((c) => c.headers['X-CSRF-Token'])).toEqual(['t1', 't2']);
    for (const write of writes) {
      expect(write.rawBody).toBe(form);
      expect(write.headers['Content-Type']).toBeUndefined();
    }
  });

  it('retries only once: a second CSRF refusal becomes the error', async () => {
    const { calls, fetchImpl } = fakeFetch((call) =>
      call.url === '/api/csrf-token'
        ? { status: 200, body: { token: 'tok' } }
        : { status: 403, body: csrfRefusal },
    );
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    const error = await api.request('POST', '/api/x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect(calls.filter((c) => c.url === '/api/x')).toHaveLength(2);
  });

  it('does not retry a 403 that is not about CSRF', async () => {
    const refusal = { statusCode: 403, code: 'registration_closed', message: 'Closed' };
    const { calls, fetchImpl } = fakeFetch((call) =>
      call.url === '/api/csrf-token'
        ? { status: 200, body: { token: 'tok' } }
        : { status: 403, body: refusal },
    );
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    const error = (await api
      .request('POST', '/api/register', {})
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe(`403: ${JSON.stringify(refusal)}`);
    expect(error.body).toEqual(refusal);
    expect(calls.filter((c) => c.url === '/api/register')).toHaveLength(1);
  });

  it("fails with 'Failed to fetch CSRF token' when the token call is not OK", async () => {
    const { calls, fetchImpl } = fakeFetch(() => ({ status: 500, body: 'boom' }));
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    await expect(api.request('POST', '/api/a', {})).rejects.toThrow(CSRF_TOKEN_ERROR);
    expect(calls).toHaveLength(1);
  });

  it('fetches a fresh token after resetCsrfToken', async () => {
    let issued = 0;
    const { calls, fetchImpl } = fakeFetch((call) =>
      call.url === '/api/csrf-token'
        ? { status: 200, body: { token: `t${++issued}` } }
        : { status: 200, body: {} },
    );
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    await api.request('POST', '/api/login', {});
    api.resetCsrfToken();
    await api.request('POST', '/api/logout');
    expect(calls.at(-1)?.headers['X-CSRF-Token']).toBe('t2');
  });
});

describe('api client errors and headers', () => {
  it('formats errors as "status: text", with the parsed API error attached', async () => {
    const body = {
      statusCode: 409,
      code: 'username_taken',
      message: 'Ese nombre de usuario ya está en uso',
      issues: [{ path: 'username', message: 'Ese nombre de usuario ya está en uso' }],
    };
    const { fetchImpl } = fakeFetch(() => ({ status: 409, body }));
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    const error = (await api.request('GET', '/api/thing').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(`409: ${JSON.stringify(body)}`);
    expect(error.status).toBe(409);
    expect(error.body).toEqual(body);
  });

  it('uses the status text when the body is empty, and leaves body undefined for non-JSON', async () => {
    const { fetchImpl } = fakeFetch((_, i) =>
      i === 0
        ? { status: 502, statusText: 'Bad Gateway' }
        : { status: 500, body: '<html>oops</html>' },
    );
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    const first = (await api.request('GET', '/api/a').catch((e: unknown) => e)) as ApiError;
    expect(first.message).toBe('502: Bad Gateway');
    const second = (await api.request('GET', '/api/b').catch((e: unknown) => e)) as ApiError;
    expect(second.message).toBe('500: <html>oops</html>');
    expect(second.body).toBeUndefined();
  });

  it('sends Accept-Language with the current language on reads, writes and token calls', async () => {
    let lang = 'es';
    const { calls, fetchImpl } = fakeFetch((call) =>
      call.url === '/api/csrf-token'
        ? { status: 200, body: { token: 'tok' } }
        : { status: 200, body: {} },
    );
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => lang });
    await api.request('GET', '/api/a');
    lang = 'en';
    await api.request('POST', '/api/b', {});
    expect(calls.map((c) => c.headers['Accept-Language'])).toEqual(['es', 'en', 'en']);
  });
});

describe('generic query function', () => {
  const queryContext = (queryKey: readonly unknown[]) =>
    ({ queryKey, signal: new AbortController().signal, meta: undefined }) as never;

  it('joins the query key parts with "/" and parses JSON', async () => {
    const { calls, fetchImpl } = fakeFetch(() => ({ status: 200, body: { id: 7 } }));
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'en' });
    const fn = api.getQueryFn<{ id: number }>({ on401: 'throw' });
    await expect(fn(queryContext(['/api/proxy-configurations', 7]))).resolves.toEqual({ id: 7 });
    expect(calls[0]?.url).toBe('/api/proxy-configurations/7');
    expect(calls[0]?.headers['Accept-Language']).toBe('en');
  });

  it('answers null on 401 with returnNull, and throws on 401 with throw', async () => {
    const body = { statusCode: 401, code: 'unauthenticated', message: 'Sign in' };
    const { fetchImpl } = fakeFetch(() => ({ status: 401, body }));
    const api = createApiClient({ fetch: fetchImpl, getLanguage: () => 'es' });
    const ctx = queryContext(['/api/auth/user']);
    await expect(api.getQueryFn({ on401: 'returnNull' })(ctx)).resolves.toBeNull();
    await expect(api.getQueryFn({ on401: 'throw' })(ctx)).rejects.toThrow(
      `401: ${JSON.stringify(body)}`,
    );
  });
});
