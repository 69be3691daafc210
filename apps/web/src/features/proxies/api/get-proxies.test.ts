import type { TProxyPage } from '@portico/shared/proxy/api';
import { PROXY_STATUSES, type TProxyStatus } from '@portico/shared/proxy/schemas';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { proxyKeys } from '@/lib/query-keys';
import {
  LIST_DEPLOYING_POLL_MS,
  proxiesRefetchInterval,
  proxyPageQueryOptions,
} from './get-proxies';

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

  it('is the interval the page query uses, read from the cached page', () => {
    const client = new QueryClient();
    const query = { limit: '24' };
    const options = proxyPageQueryOptions(query);
    const interval = options.refetchInterval;
    if (typeof interval !== 'function') throw new Error('refetchInterval must be a function');
    const cachedPage = () => {
      const cached = client.getQueryCache().find<TProxyPage>({ queryKey: proxyKeys.page(query) });
      if (!cached) throw new Error('the page is not cached');
      return cached;
    };
    const page = (items: ReturnType<typeof list>) =>
      ({ items, nextCursor: null, total: items.length }) as unknown as TProxyPage;

    client.setQueryData(proxyKeys.page(query), page(list('deploying')));
    expect(interval(cachedPage())).toBe(LIST_DEPLOYING_POLL_MS);
    client.setQueryData(proxyKeys.page(query), page(list('completed', 'failed')));
    expect(interval(cachedPage())).toBe(false);
  });
});
