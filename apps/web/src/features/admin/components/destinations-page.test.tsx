import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { DestinationsPage } from './destinations-page';

afterEach(() => vi.unstubAllGlobals());

const destinations = [
  {
    id: 'd1',
    name: 'Lab web',
    endpoint: '198.18.0.10:8080',
    description: null,
    status: 'online',
    load: null,
    latency: 3,
    isActive: true,
    maintenanceNote: null,
  },
  {
    id: 'd2',
    name: 'Old box',
    endpoint: 'old.example.com:80',
    description: null,
    status: 'offline',
    load: null,
    latency: null,
    isActive: false,
    maintenanceNote: 'Disco nuevo el viernes',
  },
];

describe('destinations page', () => {
  it.each([
    [
      'en',
      'No destination servers yet',
      "The wizard's Destination step offers the ones you add here",
    ],
    [
      'es',
      'Aún no hay servidores de destino',
      'El paso Destino del asistente ofrece los que añadas aquí',
    ],
  ] as const)(
    'empty: says what they are for and offers to add one (%s)',
    async (lang, title, words) => {
      stubFetch({ 'GET /api/destination-servers': { body: [] } });
      await renderWithProviders(<DestinationsPage />, { lang });
      const empty = await screen.findByTestId('destinations-empty');
      expect(empty.querySelector('h2')?.textContent).toBe(title);
      expect(empty.textContent).toContain(words);
      fireEvent.click(screen.getByTestId('destination-add-first'));
      await waitFor(() => expect(document.getElementById('destination-form')).not.toBeNull());
    },
  );

  it('es: status, latency, active and maintenance note; deactivate asks first then sends isActive false', async () => {
    const { calls } = stubFetch({
      'GET /api/destination-servers': { body: destinations },
      'PUT /api/admin/destination-servers/d1': { body: { ...destinations[0], isActive: false } },
    });
    await renderWithProviders(<DestinationsPage />);
    const [first, second] = await screen.findAllByTestId('admin-destination');
    expect(first?.textContent).toContain('En línea');
    expect(first?.textContent).toContain('Latencia: 3 ms');
    expect(second?.textContent).toContain('Fuera de línea');
    expect(second?.textContent).toContain('Inactivo');
    expect(second?.textContent).toContain('Nota de mantenimiento: Disco nuevo el viernes');
    fireEvent.click(screen.getAllByTestId('destination-toggle')[0] as HTMLElement);
    expect(
      await screen.findByText(
        'Lab web seguirá en la lista pero ya no se podrá elegir en el asistente.',
      ),
    ).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.click(screen.getByTestId('destination-confirm-action'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ isActive: false }),
    );
  });

  it('en: delete after confirmation; a refusal shows the server message', async () => {
    const { calls } = stubFetch({
      'GET /api/destination-servers': { body: destinations },
      'DELETE /api/admin/destination-servers/d2': {
        status: 409,
        body: { statusCode: 409, code: 'in_use', message: 'Still used by 2 proxies' },
      },
    });
    await renderWithProviders(<DestinationsPage />, { lang: 'en' });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Old box' }));
    fireEvent.click(screen.getByTestId('destination-confirm-action'));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect((await screen.findByTestId('destination-confirm-error')).textContent).toBe(
      'Still used by 2 proxies',
    );
  });

  it('en: a new destination shows its probed status without a reload', async () => {
    const created = {
      ...destinations[0],
      id: 'd3',
      name: 'Fresh',
      status: 'unknown',
      latency: null,
    };
    let saved = false;
    let readsAfterSave = 0;
    stubFetch({
      // The server answers the save at once and probes after it: the first read after the save
      // still says unknown, a later one has the probe's result.
      'GET /api/destination-servers': () => {
        if (!saved) return { body: [] };
        readsAfterSave += 1;
        return {
          body: [readsAfterSave === 1 ? created : { ...created, status: 'online', latency: 2 }],
        };
      },
      'POST /api/admin/destination-servers': () => {
        saved = true;
        return { status: 201, body: created };
      },
    });
    await renderWithProviders(<DestinationsPage />, { lang: 'en' });
    fireEvent.click(await screen.findByTestId('destination-add'));
    fireEvent.change(document.getElementById('destination-name') as HTMLInputElement, {
      target: { value: 'Fresh' },
    });
    fireEvent.change(document.getElementById('destination-endpoint') as HTMLInputElement, {
      target: { value: '198.18.0.10:8080' },
    });
    fireEvent.click(screen.getByTestId('destination-save'));
    expect((await screen.findByTestId('destination-status')).textContent).toBe('Unknown');
    await waitFor(() =>
      expect(screen.getByTestId('destination-status').textContent).toBe('Online'),
    );
  });
});
