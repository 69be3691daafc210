import type { TApiToken } from '@portico/shared/auth/account';
import type { TPublicUser } from '@portico/shared/auth/schemas';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { stubResizeObserver } from '@/test/resize-observer';
import { TokensSection } from './tokens-section';

const TOKEN = `ptk_${'a'.repeat(43)}`;

function user(twoFactorEnabled: boolean): TPublicUser {
  return {
    id: 'u1',
    username: 'ana',
    email: 'ana@example.com',
    role: 'user',
    firstName: null,
    lastName: null,
    profileImageUrl: null,
    createdAt: '2031-01-01T00:00:00.000Z',
    updatedAt: '2031-01-01T00:00:00.000Z',
    twoFactorEnabled,
    twoFactorSetupRequired: false,
  };
}

/** The tokens API as the section calls it, over a list kept here; every write recorded. */
function serve() {
  const tokens: TApiToken[] = [];
  const writes: { method: string; url: string; body: Record<string, unknown> | null }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/csrf-token') return Response.json({ token: 't' });
    const body = init?.body ? JSON.parse(String(init.body)) : null;
    if (method !== 'GET') writes.push({ method, url, body });
    if (url === '/api/account/tokens' && method === 'GET') return Response.json(tokens);
    if (url === '/api/account/tokens' && method === 'POST') {
      const row: TApiToken = {
        id: `t${tokens.length + 1}`,
        name: body.name,
        scope: body.scope,
        hint: TOKEN.slice(0, 8),
        createdAt: '2031-01-01T00:00:00.000Z',
        lastUsedAt: null,
        expiresAt: null,
      };
      tokens.push(row);
      return Response.json({ ...row, token: TOKEN }, { status: 201 });
    }
    if (url.startsWith('/api/account/tokens/') && method === 'DELETE') {
      tokens.splice(
        tokens.findIndex((token) => url.endsWith(`/${token.id}`)),
        1,
      );
      return Response.json({ success: true });
    }
    throw new Error(`unexpected ${method} ${url}`);
  });
  return writes;
}

stubResizeObserver();
afterEach(() => {
  vi.restoreAllMocks();
});

/** Fills the form and sends it: the dialog asking for the password (or a code) opens. */
async function askToCreate(name: string) {
  fireEvent.change(await screen.findByLabelText(/^(Name|Nombre)$/), { target: { value: name } });
  fireEvent.click(screen.getByTestId('token-create'));
  return screen.findByTestId('token-reauth');
}

describe('settings: API tokens', () => {
  it('asks for the password before creating a token, and sends nothing without it', async () => {
    const writes = serve();
    await renderWithProviders(<TokensSection user={user(false)} />, { lang: 'en' });
    const dialog = await askToCreate('ci');
    expect(within(dialog).getByText('Confirm it is you')).toBeTruthy();
    // No second factor on this account: the password alone is asked.
    expect(within(dialog).queryByLabelText('Code from the app, or a recovery code')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByText('Password is required')).toBeTruthy();
    expect(writes).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('Current password'), {
      target: { value: 'Secret123' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect((await screen.findByTestId('token-value')).textContent).toBe(TOKEN);
    expect(writes.filter((w) => w.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: '/api/account/tokens',
        body: { name: 'ci', scope: 'read', expiresInDays: 90, password: 'Secret123' },
      },
    ]);
  });

  it('takes a code instead in Spanish when two-factor is on', async () => {
    const writes = serve();
    await renderWithProviders(<TokensSection user={user(true)} />, { lang: 'es' });
    const dialog = await askToCreate('ci');
    expect(within(dialog).getByText('Confirma que eres tú')).toBeTruthy();
    fireEvent.change(
      within(dialog).getByLabelText('Código de la app, o un código de recuperación'),
      {
        target: { value: '123456' },
      },
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Crear token' }));
    await screen.findByTestId('token-value');
    expect(writes.find((w) => w.method === 'POST')?.body).toMatchObject({ code: '123456' });
  });

  it('a token revoked while its "copy it now" box shows takes the box away', async () => {
    serve();
    await renderWithProviders(<TokensSection user={user(false)} />, { lang: 'en' });
    const dialog = await askToCreate('short-lived');
    fireEvent.change(within(dialog).getByLabelText('Current password'), {
      target: { value: 'Secret123' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    await screen.findByTestId('token-created');
    expect(await screen.findByTestId('token-row')).toBeTruthy();
    fireEvent.click(screen.getByTestId('token-revoke'));
    fireEvent.click(await screen.findByTestId('token-revoke-confirm'));
    expect(await screen.findByText('No tokens yet.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('token-created')).toBeNull());
    expect(screen.queryByText(TOKEN)).toBeNull();
    // The form is back to make another.
    expect(screen.getByTestId('token-create')).toBeTruthy();
  });
});
