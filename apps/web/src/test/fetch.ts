import { vi } from 'vitest';

type TRoute =
  | { status?: number; body: unknown }
  | ((init?: RequestInit) => { status?: number; body: unknown });

/**
 * A fake fetch for component tests: answers by "METHOD path" (query string ignored) and records
 * every call; unknown paths answer 404 so a missing stub shows up as an error state.
 */
export function stubFetch(routes: Record<string, TRoute>) {
  const calls: { method: string; url: string; body?: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url === '/api/csrf-token') return json(200, { token: 't' });
    const route = routes[`${method} ${url.split('?')[0]}`];
    if (!route) return json(404, { statusCode: 404, code: 'not_found', message: 'Not found' });
    const answer = typeof route === 'function' ? route(init) : route;
    return json(answer.status ?? 200, answer.body);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A promise that never settles: keeps a query loading. */
export const never = () => new Promise<never>(() => {});
