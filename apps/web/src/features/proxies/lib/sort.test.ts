import type { TCertificateSummary } from '@portico/shared/certificates/schemas';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { describe, expect, it } from 'vitest';
import { sortProxies } from './sort';

const proxy = (id: string) => ({ id }) as TProxyConfiguration;
const summary = (daysLeft: number | null): TCertificateSummary => ({
  state: daysLeft === null || daysLeft < 7 ? 'danger' : 'fine',
  daysLeft,
  notAfter: null,
  checkFailed: daysLeft === null,
  nginxNotReloaded: false,
});

describe('sorting the list by expiry', () => {
  const list = ['a', 'b', 'c', 'd', 'e'].map(proxy);
  const certificates = new Map([
    ['a', summary(60)],
    ['b', summary(3)],
    ['d', summary(null)],
    ['e', summary(60)],
  ]);

  it('puts the soonest first, a failed first check before all, no certificate last', () => {
    expect(sortProxies(list, 'expiry', certificates).map((p) => p.id)).toEqual([
      'd',
      'b',
      'a',
      'e',
      'c',
    ]);
  });

  it('keeps the server order (newest first) by default', () => {
    expect(sortProxies(list, 'created', certificates).map((p) => p.id)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });
});
