import type { TDestinationServer } from '@portico/shared/proxy/api';
import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { destinationServersKey } from '@/lib/query-keys';
import { renderWithProviders } from '@/test/render';
import { emptyData } from '../state/wizard-reducer';
import { DestinationStep } from './destination-step';

const servers: TDestinationServer[] = [
  {
    id: 'on',
    name: 'Main app',
    endpoint: 'http://10.0.0.5:8080',
    description: 'Primary cluster',
    status: 'online',
    load: null,
    latency: 4,
    isActive: true,
    maintenanceNote: null,
  },
  {
    id: 'off',
    name: 'Legacy',
    endpoint: 'http://10.0.0.6',
    description: null,
    status: 'offline',
    load: null,
    latency: null,
    isActive: true,
    maintenanceNote: 'Disk replacement until Friday',
  },
];

async function renderStep(lang: 'en' | 'es', list: TDestinationServer[], targetServer = '') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity } },
  });
  queryClient.setQueryData(destinationServersKey, list);
  return renderWithProviders(
    <>
      <DestinationStep
        data={{ ...emptyData, targetServer }}
        dispatch={vi.fn()}
        customScriptName={null}
        onSaved={vi.fn()}
      />
      <Toaster />
    </>,
    { lang, queryClient },
  );
}

const next = () => screen.getByTestId('wizard-next') as HTMLButtonElement;
const radio = (id: string) => document.getElementById(id) as HTMLInputElement;

describe.each([
  ['en', 'Valid address', 'Invalid format. Use an IP', 'No destination servers available.'],
  [
    'es',
    'Dirección válida',
    'Formato no válido. Usa una IP',
    'No hay servidores de destino disponibles.',
  ],
] as const)('destination step (%s)', (lang, valid, invalid, empty) => {
  it('lists servers; offline ones show their note and cannot be chosen', async () => {
    await renderStep(lang, servers);
    expect(screen.getByText('Main app')).toBeTruthy();
    expect(screen.getByText('Primary cluster')).toBeTruthy();
    expect(screen.getByText('Disk replacement until Friday')).toBeTruthy();
    expect(radio('wizard-destination-off').disabled).toBe(true);
    expect(next().disabled).toBe(true);
    await act(async () => {
      fireEvent.click(radio('wizard-destination-on'));
    });
    expect(next().disabled).toBe(false);
  });

  it('validates the manual endpoint live with its messages', async () => {
    await renderStep(lang, []);
    expect(screen.getByText(empty)).toBeTruthy();
    await act(async () => {
      fireEvent.click(radio('wizard-destination-manual'));
    });
    const input = document.getElementById('wizard-manual-endpoint') as HTMLInputElement;
    await act(async () => {
      fireEvent.change(input, { target: { value: 'bad host!' } });
    });
    expect(screen.getByTestId('wizard-manual-endpoint-message').textContent).toContain(invalid);
    expect(next().disabled).toBe(true);
    await act(async () => {
      fireEvent.change(input, { target: { value: 'backend.internal:9000' } });
    });
    expect(screen.getByTestId('wizard-manual-endpoint-message').textContent).toBe(valid);
    expect(next().disabled).toBe(false);
  });

  it('preselects the saved target: a listed server, else manual with it', async () => {
    const first = await renderStep(lang, servers, 'http://10.0.0.5:8080');
    expect(radio('wizard-destination-on').checked).toBe(true);
    first.unmount();
    await renderStep(lang, servers, 'backend:9000');
    expect(radio('wizard-destination-manual').checked).toBe(true);
    expect((document.getElementById('wizard-manual-endpoint') as HTMLInputElement).value).toBe(
      'backend:9000',
    );
  });
  it('a choice made while the list loads stands when it arrives', async () => {
    let answer: (response: Response) => void = () => {};
    const fetching = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await renderWithProviders(
      <DestinationStep
        data={{ ...emptyData, targetServer: 'http://10.0.0.5:8080' }}
        dispatch={vi.fn()}
        customScriptName={null}
        onSaved={vi.fn()}
      />,
      { lang, queryClient },
    );
    await act(async () => {
      fireEvent.click(radio('wizard-destination-manual'));
    });
    const input = document.getElementById('wizard-manual-endpoint') as HTMLInputElement;
    await act(async () => {
      fireEvent.change(input, { target: { value: 'backend.internal:9000' } });
    });
    await act(async () => {
      answer(Response.json(servers));
    });
    expect(await screen.findByText('Main app')).toBeTruthy();
    expect(radio('wizard-destination-manual').checked).toBe(true);
    expect(radio('wizard-destination-on').checked).toBe(false);
    expect(input.value).toBe('backend.internal:9000');
    fetching.mockRestore();
  });
});

describe('saving the configuration', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each([
    ['en', 'The configuration could not be saved', 'That domain is already configured in Portico.'],
    ['es', 'No se pudo guardar la configuración', 'Ese dominio ya está configurado en Portico.'],
  ] as const)("a refusal toasts the server's reason (%s)", async (lang, title, reason) => {
    // What the server answers a save of a domain that another configuration took meanwhile.
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      if (String(input) === '/api/csrf-token') return Response.json({ token: 't' });
      return Response.json(
        { statusCode: 409, code: 'domain_taken', message: reason },
        { status: 409 },
      );
    });
    vi.stubGlobal('fetch', fetchMock);
    await renderStep(lang, servers, 'http://10.0.0.5:8080');
    await act(async () => {
      fireEvent.click(next());
    });
    const toast = (await screen.findByText(title)).closest('[data-slot="toast"]');
    expect(toast?.querySelector('[data-slot="toast-description"]')?.textContent).toBe(reason);
    expect(fetchMock).toHaveBeenCalledWith('/api/proxy-configurations', expect.anything());
  });
});
