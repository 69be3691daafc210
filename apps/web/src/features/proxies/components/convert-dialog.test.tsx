import type { TConvertPlan } from '@portico/shared/proxy/api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { stubFetch } from '@/test/fetch';
import { aProxy } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { AdoptedSection } from './adopted-section';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const FILE = '/etc/nginx/sites-enabled/shop';
const proxy = aProxy({
  status: 'completed',
  adoption: {
    file: FILE,
    sha256: 'ab'.repeat(32),
    changedAt: null,
    missingAt: null,
    fileText: 'server {}',
  },
});
const portico = `/etc/nginx/sites-available/proxy-${proxy.domain}`;
const plan: TConvertPlan = {
  fingerprint: `v1:${'c'.repeat(64)}`,
  family: 'debian',
  adoptedFile: FILE,
  files: [
    {
      path: '/etc/nginx/sites-available/shop',
      kind: 'file',
      change: 'remove',
      diff: '--- /etc/nginx/sites-available/shop\n+++ /etc/nginx/sites-available/shop\n@@ -1 +0,0 @@\n-server {}\n',
      tooLarge: false,
      private: false,
    },
    {
      path: portico,
      kind: 'file',
      change: 'create',
      diff: `--- ${portico}\n+++ ${portico}\n@@ -0,0 +1 @@\n+server { listen 80; }\n`,
      tooLarge: false,
      private: false,
    },
  ],
  commands: [
    { kind: 'test', command: 'nginx -t' },
    { kind: 'reload', command: 'systemctl reload nginx' },
  ],
  certificate: 'keep',
  reload: true,
  changes: true,
  targetServer: proxy.targetServer ?? '',
};
const base = `/api/proxy-configurations/${proxy.id}/convert`;

async function openConvert(lang: 'en' | 'es', convert = { status: 200, body: {} as unknown }) {
  const stub = stubFetch({
    [`POST ${base}/plan`]: { body: plan },
    [`POST ${base}`]: convert,
  });
  await renderWithProviders(
    <>
      <AdoptedSection proxy={proxy} />
      <Toaster />
    </>,
    { lang },
  );
  const button = await screen.findByTestId('proxy-convert');
  await act(async () => {
    fireEvent.click(button);
  });
  const dialog = await screen.findByTestId('convert-dialog');
  await within(dialog).findByTestId('plan-view');
  return { ...stub, button, dialog };
}

describe("Convert to Portico's configuration on an adopted proxy", () => {
  it.each([
    ['en', "Convert to Portico's configuration", 'Convert'],
    ['es', 'Convertir a la configuración de Portico', 'Convertir'],
  ] as const)(
    'shows the plan first, then converts with its fingerprint (%s)',
    async (lang, label, apply) => {
      const { button, dialog, calls } = await openConvert(lang, {
        status: 200,
        body: { converted: true, nginxConfigPath: portico, log: [] },
      });
      expect(button.textContent).toContain(label);
      // The plan was asked for, and nothing converted before the user says so.
      expect(calls.filter((c) => c.url === base)).toEqual([]);
      expect(dialog.textContent).toContain('/etc/nginx/sites-available/shop');
      expect(dialog.textContent).toContain(portico);
      const convert = within(dialog).getByTestId('convert-apply');
      expect(convert.textContent).toBe(apply);
      await act(async () => {
        fireEvent.click(convert);
      });
      await waitFor(() =>
        expect(calls.find((c) => c.url === base)?.body).toEqual({ fingerprint: plan.fingerprint }),
      );
      await waitFor(() => expect(screen.queryByTestId('convert-dialog')).toBeNull());
    },
  );

  it('says why a conversion was refused, in the reader’s language, and keeps the dialog', async () => {
    const { dialog } = await openConvert('es', {
      status: 409,
      body: {
        statusCode: 409,
        code: 'server_changed',
        message: 'El sitio no se convirtió: editado a mano',
        text: { key: 'errors.convertFailed', params: { reason: 'editado a mano' } },
      },
    });
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('convert-apply'));
    });
    expect(await screen.findByText('El sitio no se convirtió')).toBeTruthy();
    await waitFor(() => expect(document.body.textContent).toContain('editado a mano'));
    expect(screen.getByTestId('convert-dialog')).toBeTruthy();
  });
});
