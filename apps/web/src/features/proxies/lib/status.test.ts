import { PROXY_STATUSES } from '@portico/shared/proxy/schemas';
import { describe, expect, it } from 'vitest';
import { createI18n } from '@/lib/i18n';
import { statusLabelKey } from '@/lib/proxy-status';
import { loadCatalogNow } from '@/test/catalogs';
import { continueHref, detailsHref, isContinuable, siteUrl } from './status';

describe('status labels', () => {
  it.each([
    ['en', 'Active', 'Pending'],
    ['es', 'Activo', 'Pendiente'],
  ] as const)('labels completed as Active in %s', async (lang, active, pending) => {
    const i18n = createI18n(loadCatalogNow);
    await i18n.changeLanguage(lang);
    expect(i18n.t(statusLabelKey('completed'))).toBe(active);
    expect(i18n.t(statusLabelKey('pending'))).toBe(pending);
    for (const status of PROXY_STATUSES) {
      expect(i18n.exists(statusLabelKey(status)), status).toBe(true);
    }
  });
});

describe('continue-able rule', () => {
  it('offers continue on every status but completed', () => {
    const continuable = PROXY_STATUSES.filter(isContinuable);
    expect(continuable).toEqual(PROXY_STATUSES.filter((s) => s !== 'completed'));
    expect(isContinuable('completed')).toBe(false);
  });

  it('links to the wizard with continueId and to the details page', () => {
    expect(continueHref('a b')).toBe('/proxy-wizard?continueId=a%20b');
    expect(detailsHref('42')).toBe('/proxy-details/42');
    expect(siteUrl('app.example.com')).toBe('https://app.example.com');
    expect(siteUrl('app.example.com', 'http')).toBe('http://app.example.com');
  });
});
