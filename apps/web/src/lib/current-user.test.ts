import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { SESSION_RETRY_DELAYS_MS, sessionCheckRetries, userQueryOptions } from './current-user';

describe('the session check tries again', () => {
  it('after no answer and after a server error, three times at most', () => {
    const offline = new TypeError('Failed to fetch');
    expect([0, 1, 2, 3].map((n) => sessionCheckRetries(n, offline))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(sessionCheckRetries(0, new ApiError(500, 'Internal Server Error'))).toBe(true);
    expect(sessionCheckRetries(0, new ApiError(503, 'Service Unavailable'))).toBe(true);
  });

  it('not after an answer that will not change on its own', () => {
    expect(sessionCheckRetries(0, new ApiError(403, 'Forbidden'))).toBe(false);
    expect(sessionCheckRetries(0, new ApiError(429, 'Too Many Requests'))).toBe(false);
  });

  it('waits longer each time', () => {
    const delay = userQueryOptions().retryDelay as (n: number, e: unknown) => number;
    expect([0, 1, 2].map((n) => delay(n, new TypeError()))).toEqual([...SESSION_RETRY_DELAYS_MS]);
  });
});
