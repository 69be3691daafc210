import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { TwoFactorSetup } from './two-factor-setup';

afterEach(() => vi.unstubAllGlobals());

const SETUP = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', qrCode: 'data:image/png;base64,AA==' };

describe('two-factor setup', () => {
  it.each([
    ['en', 'That code does not match: enter the one your app shows now'],
    ['es', 'Ese código no coincide: introduce el que muestra ahora tu aplicación'],
  ] as const)(
    'shows the QR code at once; a wrong first code never mentions recovery codes (%s)',
    async (lang, words) => {
      const { calls } = stubFetch({
        'POST /api/account/two-factor/setup': { body: SETUP },
        'POST /api/account/two-factor/confirm': {
          status: 400,
          body: {
            statusCode: 400,
            code: 'two_factor_invalid',
            message:
              'That code is not valid, or was already used. Enter the current code from your app, or an unused recovery code.',
          },
        },
      });
      await renderWithProviders(<TwoFactorSetup username="jane" onFinished={() => {}} />, { lang });
      // No "Show the QR code" click: it is there.
      expect(await screen.findByTestId('two-factor-qr')).toBeTruthy();
      expect(screen.queryByTestId('two-factor-start')).toBeNull();
      expect(calls.filter((c) => c.url === '/api/account/two-factor/setup')).toHaveLength(1);
      fireEvent.change(document.getElementById('two-factor-code')!, {
        target: { value: '123456' },
      });
      fireEvent.click(screen.getByTestId('two-factor-confirm'));
      const error = await screen.findByText((text) => text.startsWith(words));
      expect(error.textContent).not.toMatch(/recovery|recuperación/i);
    },
  );
});
