import { act, StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '@/app/app';
import { userQueryKey } from '@/lib/current-user';
import { createI18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { renderLanding } from './prerender';
import { loadCatalogNow } from './test/catalogs';

// React's act() outside Testing Library's render (which sets this itself).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
let root: Root | undefined;

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe.each(['es', 'en'] as const)('the landing page prerendered in %s', (language) => {
  const t = createI18n(loadCatalogNow, language).t;

  it('is the signed-out landing page in that language, its form inert until React holds it', () => {
    document.body.innerHTML = `<div id="root">${renderLanding(language)}</div>`;
    expect(document.querySelector('h1')?.textContent).toBe(t('landing.title'));
    expect(document.body.textContent).toContain(t('landing.login.submit'));
    const submit = document.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    expect(submit.disabled).toBe(true);
    // Drawn as it will be once live: no faded button that then flickers.
    expect(submit.className).toContain('disabled:opacity-100');
    const inputs = [...document.querySelectorAll<HTMLInputElement>('form input')];
    expect(inputs.map((input) => input.name)).toEqual(['identifier', 'password']);
    for (const input of inputs) expect(input.readOnly).toBe(true);
    for (const id of ['tab-login', 'tab-register', 'language-switcher']) {
      expect(document.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`)?.disabled).toBe(
        true,
      );
    }
  });

  it('is taken over by the app as it is (hydrated: same nodes, no mismatch), then live', async () => {
    document.body.innerHTML = `<div id="root" data-prerendered="${language}">${renderLanding(language)}</div>`;
    const container = document.getElementById('root')!;
    const heading = container.querySelector('h1');
    const errors: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args) => errors.push(args));
    // As main.tsx does once the texts and the session check are in: signed out.
    const i18n = createI18n(loadCatalogNow, language);
    const queryClient = createQueryClient();
    queryClient.setQueryData(userQueryKey, null);
    await act(async () => {
      root = hydrateRoot(
        container,
        <StrictMode>
          <App queryClient={queryClient} i18n={i18n} />
        </StrictMode>,
        { onRecoverableError: (error) => errors.push(error) },
      );
    });
    expect(errors).toEqual([]);
    expect(container.querySelector('h1')).toBe(heading);
    const submit = container.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    expect(submit.disabled).toBe(false);
    expect(submit.className).not.toContain('disabled:opacity-100');
    for (const input of container.querySelectorAll<HTMLInputElement>('form input')) {
      expect(input.readOnly).toBe(false);
    }
    for (const id of ['tab-login', 'tab-register', 'language-switcher']) {
      expect(container.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`)?.disabled).toBe(
        false,
      );
    }
  });
});
