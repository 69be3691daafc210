import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient } from './query-client';
import { sessionQueryKey } from './query-keys';

const user = { id: 'u1', username: 'jane' };

describe('query client', () => {
  it('uses the documented defaults: 5 min stale and gc, no retries, no polling, refetch on focus', () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(queries?.staleTime).toBe(300_000);
    expect(queries?.gcTime).toBe(300_000);
    expect(queries?.retry).toBe(false);
    expect(queries?.refetchInterval).toBe(false);
    expect(queries?.refetchOnWindowFocus).toBe(true);
    expect(createQueryClient().getDefaultOptions().mutations?.retry).toBe(false);
  });

  it('re-checks the session when another query answers 401', async () => {
    const client = createQueryClient();
    client.setQueryData(sessionQueryKey, user);
    await client
      .fetchQuery({
        queryKey: ['/api/user/proxy-configurations'],
        queryFn: () => Promise.reject(new ApiError(401, '401: expired')),
      })
      .catch(() => undefined);
    expect(client.getQueryState(sessionQueryKey)?.isInvalidated).toBe(true);
  });

  it.each([
    ['signed in', user, true],
    ['already signed out (a wrong password at login)', null, false],
  ])('on a 401 from a write, re-checks the session only when %s', async (_, session, expected) => {
    const client = createQueryClient();
    client.setQueryData(sessionQueryKey, session);
    await client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.reject(new ApiError(401, '401: no')) })
      .execute(undefined)
      .catch(() => undefined);
    expect(client.getQueryState(sessionQueryKey)?.isInvalidated).toBe(expected);
  });

  it('leaves the session alone on other errors', async () => {
    const client = createQueryClient();
    client.setQueryData(sessionQueryKey, user);
    await client
      .fetchQuery({
        queryKey: ['/api/thing'],
        queryFn: () => Promise.reject(new ApiError(500, '500: boom')),
      })
      .catch(() => undefined);
    expect(client.getQueryState(sessionQueryKey)?.isInvalidated).toBe(false);
  });
});
