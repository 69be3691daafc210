import sharedEs from '@portico/shared/locales/es.json';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '@/locales/en.json';
import es from '@/locales/es.json';
import { renderWithProviders } from '@/test/render';
import { WildcardUseSection } from './wildcard-use-section';

const ID = '00000000-0000-4000-8000-000000000042';
const HOLDER = '00000000-0000-4000-8000-000000000043';
const CHOICES_URL = `/api/proxy-configurations/${ID}/certificate/wildcards`;
const USE_URL = `/api/proxy-configurations/${ID}/certificate/wildcard`;
const fill = (text: string, params: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => params[k] ?? '');

const wildcard = { holderId: HOLDER, domain: '*.example.com', expiresAt: '2027-02-01T00:00:00Z' };

type TWrite = { method: string; url: string; body: unknown };

/** Answers the choices with `current`/`available`; a PUT with `refusal` (when given) or the choice. */
function serve(choices: { current: unknown; available: unknown[] }, refusal?: unknown) {
  const writes: TWrite[] = [];
  let answer = choices;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/csrf-token') return Response.json({ token: 't' });
    if (method === 'GET' && url === CHOICES_URL) return Response.json(answer);
    if (url !== USE_URL) throw new Error(`unexpected ${method} ${url}`);
    writes.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (refusal) return Response.json(refusal, { status: 409 });
    answer =
      method === 'PUT'
        ? { current: wildcard, available: [wildcard] }
        : { ...answer, current: null };
    return Response.json(method === 'PUT' ? answer : { success: true });
  });
  return writes;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the proxy's wildcard certificate of the same server", () => {
  it('offers the wildcard already on the server and chooses it (es)', async () => {
    const writes = serve({ current: null, available: [wildcard] });
    await renderWithProviders(<WildcardUseSection proxyId={ID} domain="c.example.com" />, {
      lang: 'es',
    });
    const section = await screen.findByTestId('wildcard-use');
    expect(section.getAttribute('data-using')).toBe('no');
    expect(screen.getByTestId('wildcard-use-state').textContent).toBe(
      fill(es.certificate.wildcard.offer, { wildcard: '*.example.com' }),
    );
    const choose = screen.getByTestId('wildcard-use-choose');
    expect(choose.textContent).toBe(
      fill(es.certificate.wildcard.use, { wildcard: '*.example.com' }),
    );
    // A button: Enter and Space press it, as a click does.
    expect(choose.tagName).toBe('BUTTON');
    fireEvent.click(choose);
    await waitFor(() =>
      expect(writes).toEqual([{ method: 'PUT', url: USE_URL, body: { holderId: HOLDER } }]),
    );
    await waitFor(() =>
      expect(screen.getByTestId('wildcard-use').getAttribute('data-using')).toBe('yes'),
    );
    expect(screen.getByTestId('wildcard-use-state').textContent).toBe(
      fill(es.certificate.wildcard.using, { wildcard: '*.example.com' }),
    );
  });

  it("shows the server's refusal in the user's language", async () => {
    const message = fill(sharedEs.certificates.wildcard.notLive, { wildcard: '*.example.com' });
    serve(
      { current: null, available: [wildcard] },
      {
        statusCode: 409,
        code: 'conflict',
        message,
        text: { key: 'certificates.wildcard.notLive', params: { wildcard: '*.example.com' } },
      },
    );
    await renderWithProviders(<WildcardUseSection proxyId={ID} domain="c.example.com" />, {
      lang: 'es',
    });
    fireEvent.click(await screen.findByTestId('wildcard-use-choose'));
    expect((await screen.findByTestId('wildcard-use-problem')).textContent).toBe(message);
    expect(screen.getByTestId('wildcard-use').getAttribute('data-using')).toBe('no');
  });

  it('goes back to a certificate of its own after a confirmation (en)', async () => {
    const writes = serve({ current: wildcard, available: [wildcard] });
    await renderWithProviders(<WildcardUseSection proxyId={ID} domain="c.example.com" />, {
      lang: 'en',
    });
    expect((await screen.findByTestId('wildcard-use-state')).textContent).toBe(
      fill(en.certificate.wildcard.using, { wildcard: '*.example.com' }),
    );
    fireEvent.click(screen.getByTestId('wildcard-use-stop'));
    fireEvent.click(await screen.findByTestId('wildcard-use-stop-confirm'));
    await waitFor(() =>
      expect(writes).toEqual([{ method: 'DELETE', url: USE_URL, body: undefined }]),
    );
  });

  it('says nothing when no wildcard covers the name, and asks nothing for a name none could', async () => {
    serve({ current: null, available: [] });
    const { container } = await renderWithProviders(
      <WildcardUseSection proxyId={ID} domain="c.example.com" />,
      { lang: 'en' },
    );
    await waitFor(() => expect(vi.mocked(globalThis.fetch)).toHaveBeenCalled());
    expect(screen.queryByTestId('wildcard-use')).toBeNull();
    vi.mocked(globalThis.fetch).mockClear();
    await renderWithProviders(<WildcardUseSection proxyId={ID} domain="example.com" />, {
      lang: 'en',
    });
    expect(vi.mocked(globalThis.fetch)).not.toHaveBeenCalled();
    expect(container.textContent).toBe('');
  });
});
