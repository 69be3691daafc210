import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aProxy } from '@/test/proxy';
import { LIST_URL, pageOf, pageReads } from '@/test/proxy-page';
import { renderWithProviders } from '@/test/render';
import { ProxyList } from './proxy-list';

const proxy = (n: number, status: TProxyConfiguration['status'] = 'completed') =>
  aProxy({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    domain: `site${n}.example.com`,
    status,
  });

/** A server of two pages (sites 1–2, then 3) that answers a search or a filter with site 2. */
function serveTwoPages() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
    if (String(url).startsWith('/api/certificates')) return Response.json([]);
    if (!String(url).startsWith(LIST_URL)) throw new Error(`unexpected ${url}`);
    const query = new URLSearchParams(String(url).slice(LIST_URL.length));
    if (query.get('q') || query.get('status')) {
      return Response.json({
        ...pageOf([proxy(2, 'failed')]),
        counts: pageOf([proxy(1), proxy(2, 'failed'), proxy(3)]).counts,
      });
    }
    if (query.get('cursor') === 'after2') return Response.json(pageOf([proxy(3)]));
    const first = pageOf([proxy(1), proxy(2, 'failed')], 'after2');
    const all = pageOf([proxy(1), proxy(2, 'failed'), proxy(3)]);
    return Response.json({ ...first, total: 3, counts: all.counts });
  });
}

const domains = () =>
  screen.getAllByTestId('proxy-card').map((card) => card.textContent?.match(/site\d/)?.[0]);

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

describe('proxy list in pages', () => {
  it('walks to the next page and back, each page a step in the address', async () => {
    const fetchMock = serveTwoPages();
    await renderWithProviders(<ProxyList />, { lang: 'en' });
    await waitFor(() => expect(domains()).toEqual(['site1', 'site2']));
    expect(screen.getByTestId('page-number').textContent).toBe('Page 1');
    expect(screen.getByTestId('page-previous').hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() => expect(domains()).toEqual(['site3']));
    expect(window.location.search).toBe('?page=after2');
    expect(pageReads(fetchMock).at(-1)).toEqual({ limit: '24', cursor: 'after2' });
    expect(screen.getByTestId('page-number').textContent).toBe('Page 2');
    expect(screen.getByTestId('page-next').hasAttribute('disabled')).toBe(true);
    // Focus goes back to the list's heading, where the new page starts.
    expect(document.activeElement?.id).toBe('proxies-heading');
    fireEvent.click(screen.getByTestId('page-previous'));
    await waitFor(() => expect(domains()).toEqual(['site1', 'site2']));
    expect(window.location.search).toBe('');
  });

  it('shows the status chips with their counts and filters on the server', async () => {
    const fetchMock = serveTwoPages();
    await renderWithProviders(<ProxyList />, { lang: 'es' });
    await waitFor(() => expect(domains()).toEqual(['site1', 'site2']));
    const chips = screen.getByTestId('status-chips');
    // Statuses no proxy has are left out.
    expect([...chips.querySelectorAll('button')].map((b) => b.textContent)).toEqual([
      'Todos (3)',
      'Activo (2)',
      'Fallido (1)',
    ]);
    fireEvent.click(screen.getByTestId('status-chips-failed'));
    await waitFor(() => expect(domains()).toEqual(['site2']));
    expect(window.location.search).toBe('?status=failed');
    expect(pageReads(fetchMock).at(-1)).toEqual({ limit: '24', status: 'failed' });
    expect(screen.getByTestId('status-chips-failed').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('proxy-total').textContent).toBe('(1 encontrado)');
    // Choosing it again clears it.
    fireEvent.click(screen.getByTestId('status-chips-failed'));
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('searches once typing pauses, replacing the address rather than adding a step', async () => {
    const fetchMock = serveTwoPages();
    window.history.replaceState(null, '', '/?page=after2');
    const length = window.history.length;
    await renderWithProviders(<ProxyList />, { lang: 'en' });
    await waitFor(() => expect(domains()).toEqual(['site3']));
    const reads = pageReads(fetchMock).length;
    fireEvent.change(screen.getByTestId('proxy-search'), { target: { value: 'sit' } });
    fireEvent.change(screen.getByTestId('proxy-search'), { target: { value: 'site2' } });
    await waitFor(() => expect(domains()).toEqual(['site2']));
    // One read for the finished word, from the first page.
    expect(pageReads(fetchMock).slice(reads)).toEqual([{ limit: '24', q: 'site2' }]);
    expect(window.location.search).toBe('?q=site2');
    expect(window.history.length).toBe(length);
  });

  it('opens on the view its address names: search, filter and page', async () => {
    const fetchMock = serveTwoPages();
    window.history.replaceState(null, '', '/?q=site&status=failed&sort=expiry&page=abc');
    await renderWithProviders(<ProxyList />, { lang: 'en' });
    await waitFor(() => expect(domains()).toEqual(['site2']));
    expect(pageReads(fetchMock)[0]).toEqual({
      limit: '24',
      q: 'site',
      status: 'failed',
      sort: 'expiry',
      cursor: 'abc',
    });
    expect((screen.getByTestId('proxy-search') as HTMLInputElement).value).toBe('site');
    expect((screen.getByTestId('proxy-sort') as HTMLSelectElement).value).toBe('expiry');
    expect(screen.getByTestId('page-number').textContent).toBe('Page 2');
  });

  it('says when nothing matches, keeping the search to change', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
      if (String(url).startsWith('/api/certificates')) return Response.json([]);
      return Response.json(pageOf([]));
    });
    window.history.replaceState(null, '', '/?q=nothing');
    await renderWithProviders(<ProxyList />, { lang: 'es' });
    const none = await screen.findByTestId('proxy-list-no-match');
    expect(none.textContent).toContain('Ningún proxy coincide');
    expect(screen.queryByTestId('proxy-list-empty')).toBeNull();
    expect((screen.getByTestId('proxy-search') as HTMLInputElement).value).toBe('nothing');
  });

  it('reads the same page again on focus, in the order the server gives', async () => {
    const fetchMock = serveTwoPages();
    window.history.replaceState(null, '', '/?page=after2');
    await renderWithProviders(<ProxyList />, { lang: 'en' });
    await waitFor(() => expect(domains()).toEqual(['site3']));
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(pageReads(fetchMock).length).toBeGreaterThanOrEqual(2));
    expect(new Set(pageReads(fetchMock).map((q) => q.cursor))).toEqual(new Set(['after2']));
    expect(domains()).toEqual(['site3']);
  });
});
