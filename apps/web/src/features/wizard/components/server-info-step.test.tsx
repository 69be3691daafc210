import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { emptyData } from '../state/wizard-reducer';
import { ServerInfoStep } from './server-info-step';

async function type(id: string, value: string) {
  const input = document.getElementById(id) as HTMLInputElement;
  await act(async () => {
    fireEvent.change(input, { target: { value } });
  });
}

const hiddenEmail = () =>
  (document.querySelector('[data-testid="wizard-email"]') as HTMLInputElement).value;

describe.each([
  ['en', 'valid', 'Invalid IP address format', 'Leave the field empty to keep it'],
  ['es', 'válido', 'Formato de dirección IP no válido', 'Deja el campo vacío para conservarla'],
] as const)('server info step (%s)', (lang, okLabel, ipError, savedHint) => {
  it('fills the hidden e-mail from the domain and marks passing fields', async () => {
    await renderWithProviders(<ServerInfoStep data={emptyData} dispatch={vi.fn()} />, { lang });
    // root is the default user and already passes.
    expect(screen.getAllByText(okLabel)).toHaveLength(1);
    expect((document.getElementById('wizard-ssh-user') as HTMLInputElement).value).toBe('root');

    await type('wizard-domain', 'App.Example.com');
    expect(hiddenEmail()).toBe('admin@app.example.com');
    await type('wizard-server-ip', '198.18.0.10');
    await type('wizard-ssh-password', 's3cret');
    expect(screen.getAllByText(okLabel)).toHaveLength(4);

    await type('wizard-server-ip', '198.18.0.300');
    expect(screen.getAllByText(okLabel)).toHaveLength(3);
    expect(screen.getByText(ipError)).toBeTruthy();
  });

  it('keeps a chosen e-mail and offers to keep a saved password', async () => {
    await renderWithProviders(
      <ServerInfoStep
        data={{
          ...emptyData,
          domain: 'a.example.com',
          email: 'ops@example.org',
          hasSavedPassword: true,
        }}
        dispatch={vi.fn()}
      />,
      { lang },
    );
    await type('wizard-domain', 'b.example.com');
    expect(hiddenEmail()).toBe('ops@example.org');
    expect(screen.getByText(new RegExp(savedHint))).toBeTruthy();
    // An empty password passes when one is saved.
    expect(screen.getAllByText(okLabel)).toHaveLength(3);
  });
});
