import { act, render, screen } from '@testing-library/react';
import * as React from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { ExpiryBadge } from '@/components/ui/expiry-badge';
import en from '@/locales/en.json';
import es from '@/locales/es.json';
import { CERTIFICATE_TEXTS, createI18n, i18nReady, LANGUAGE_STORAGE_KEY, loadTexts } from './i18n';

// The real loader (each namespace its own dynamically imported module), as in the browser.
async function spanishInstance() {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, 'es');
  const i18n = createI18n();
  await i18nReady(i18n);
  return i18n;
}

function badgeText(): string {
  return screen.getByTestId('certificate-badge').textContent ?? '';
}

function renderBadge(i18n: ReturnType<typeof createI18n>) {
  return render(
    <I18nextProvider i18n={i18n}>
      <React.Suspense fallback={<p>loading</p>}>
        <ExpiryBadge state="fine" daysLeft={0} />
      </React.Suspense>
    </I18nextProvider>,
  );
}

afterEach(() => localStorage.clear());

describe('the certificate texts (CERTIFICATE_TEXTS)', () => {
  it('are not in the landing catalog: loaded only when a screen asks for them', async () => {
    const i18n = await spanishInstance();
    expect(i18n.exists('certificate.badge.expiresToday')).toBe(false);
    expect(i18n.exists('landing.tabs.login')).toBe(true);
    await loadTexts(CERTIFICATE_TEXTS, i18n);
    expect(i18n.t('certificate.badge.expiresToday', { ns: CERTIFICATE_TEXTS })).toBe(
      es.certificate.badge.expiresToday,
    );
  });

  it('of the new language are there when a language switch re-renders the screen', async () => {
    const i18n = await spanishInstance();
    await loadTexts(CERTIFICATE_TEXTS, i18n);
    renderBadge(i18n);
    expect(badgeText()).toContain(es.certificate.badge.expiresToday);
    // What a screen would render at the moment it learns of the new language.
    const seen: string[] = [];
    i18n.on('languageChanged', () =>
      seen.push(i18n.t('certificate.badge.expiresToday', { ns: CERTIFICATE_TEXTS })),
    );
    await act(() => i18n.changeLanguage('en'));
    expect(seen).toEqual([en.certificate.badge.expiresToday]);
    expect(badgeText()).toContain(en.certificate.badge.expiresToday);
    expect(badgeText()).not.toContain('certificate.');
  });

  it('not loaded yet, the component waits for them instead of showing keys', async () => {
    const i18n = await spanishInstance();
    renderBadge(i18n);
    expect(screen.getByText('loading')).toBeTruthy();
    await screen.findByTestId('certificate-badge');
    expect(badgeText()).toContain(es.certificate.badge.expiresToday);
    expect(badgeText()).not.toContain('certificate.');
  });
});
