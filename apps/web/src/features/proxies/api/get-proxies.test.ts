import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { PROXY_STATUSES, type TProxyStatus } from '@portico/shared/proxy/schemas';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { proxyKeys } from '@/lib/query-keys';
import { LIST_DEPLOYING_POLL_MS, proxiesQueryOptions, proxiesRefetchInterval } from './get-proxies';

const list = (...statuses: TProxyStatus[]) => statuses.map((status) => ({ status }));

describe('home list polling while a proxy deploys', () => {
  it('polls every 3 s while any listed proxy is deploying', () => {
    expect(LIST_DEPLOYING_POLL_MS).toBe(3000);
    expect(proxiesRefetchInterval(list('deploying'))).toBe(LIST_DEPLOYING_POLL_MS);
    expect(proxiesRefetchInterval(list('completed', 'failed', 'deploying'))).toBe(
      LIST_DEPLOYING_POLL_MS,
    );
  });

  it('stops when no proxy is deploying, or before the list has loaded', () => {
    const others = PROXY_STATUSES.filter((status) => status !== 'deploying');
    expect(others.length).toBeGreaterThan(0);
    expect(proxiesRefetchInterval(list(...others))).toBe(false);
    expect(proxiesRefetchInterval([])).toBe(false);
    expect(proxiesRefetchInterval(undefined)).toBe(false);
  });

  it('is the interval the list query uses, read from the cached data', () => {
    const client = new QueryClient();
    const options = proxiesQueryOptions();
    const interval = options.refetchInterval;
    if (typeof interval !== 'function') throw new Error('refetchInterval must be a function');
    const query = () => {
      const cached = client
        .getQueryCache()
        .find<TProxyConfiguration[]>({ queryKey: proxyKeys.list });
      if (!cached) throw new Error('the list is not cached');
      return cached;
    };

    client.setQueryData(proxyKeys.list, list('deploying'));
    expect(interval(query())).toBe(LIST_DEPLOYING_POLL_MS);
    client.setQueryData(proxyKeys.list, list('completed', 'failed'));
    expect(interval(query())).toBe(false);
  });
});
