import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { stubResizeObserver } from '@/test/resize-observer';
import { DestinationFormDialog } from './destination-form-dialog';

// Also undoes the tests' own stubbed globals (fetch) after each test.
stubResizeObserver();

async function submitWith(lang: 'es' | 'en', endpoint: string) {
  const { calls } = stubFetch({});
  await renderWithProviders(
    <DestinationFormDialog destination={null} open onOpenChange={() => {}} />,
    { lang },
  );
  fireEvent.change(screen.getByLabelText(lang === 'en' ? 'Endpoint' : 'Dirección'), {
    target: { value: endpoint },
  });
  fireEvent.click(screen.getByTestId('destination-save'));
  await waitFor(() => expect(document.getElementById('destination-name-error')).toBeTruthy());
  return calls;
}

describe('destination form validation (shared schema)', () => {
  it('en: name required and endpoint format, nothing sent', async () => {
    const calls = await submitWith('en', 'not a host!');
    expect(document.getElementById('destination-name-error')?.textContent).toBe(
      'This field is required',
    );
    expect(document.getElementById('destination-endpoint-error')?.textContent).toMatch(
      /^Invalid format/,
    );
    expect(calls).toHaveLength(0);
  });

  it('es: the same messages in Spanish; an empty endpoint is required', async () => {
    await submitWith('es', '');
    expect(document.getElementById('destination-name-error')?.textContent).toBe(
      'Este campo es obligatorio',
    );
    expect(document.getElementById('destination-endpoint-error')?.textContent).toBe(
      'El servidor de destino es obligatorio',
    );
  });

  it('a valid form is posted with blank optional texts as null', async () => {
    const { calls } = stubFetch({
      'POST /api/admin/destination-servers': { status: 201, body: { id: 'd1' } },
    });
    const onOpenChange = vi.fn();
    await renderWithProviders(
      <DestinationFormDialog destination={null} open onOpenChange={onOpenChange} />,
      { lang: 'en' },
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Lab web' } });
    fireEvent.change(screen.getByLabelText('Endpoint'), { target: { value: '10.0.0.5:8080' } });
    fireEvent.click(screen.getByTestId('destination-save'));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    const post = calls.find((c) => c.method === 'POST' && c.url.includes('destination'));
    expect(post?.body).toEqual({
      name: 'Lab web',
      endpoint: '10.0.0.5:8080',
      description: null,
      isActive: true,
      maintenanceNote: null,
    });
  });
});
