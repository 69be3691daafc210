import type { TDeployPlan } from '@portico/shared/proxy/api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { aProxy } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { EditProxyDialog } from './edit-proxy-dialog';
import { ManagementPanel } from './management-panel';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const proxy = aProxy({ status: 'completed', hasSshPassword: true });
const site = '/etc/nginx/sites-available/proxy-app.example.com';
const plan: TDeployPlan = {
  fingerprint: `v1:${'a'.repeat(64)}`,
  family: 'debian',
  files: [
    {
      path: site,
      kind: 'file',
      change: 'update',
      diff: `--- ${site}\n+++ ${site}\n@@ -1,3 +1,3 @@\n server {\n-        proxy_pass http://10.0.0.5:8080;\n+        proxy_pass http://10.0.0.6:8080;\n }\n`,
      tooLarge: false,
      private: false,
    },
    {
      path: '/etc/nginx/sites-enabled/proxy-app.example.com',
      kind: 'link',
      change: 'unchanged',
      diff: '',
      tooLarge: false,
      private: false,
    },
  ],
  commands: [
    { kind: 'test', command: 'nginx -t' },
    { kind: 'reload', command: 'systemctl reload nginx' },
    { kind: 'certificate-keep', command: 'certbot certonly --webroot …' },
  ],
  certificate: 'keep',
  reload: true,
  changes: true,
  targetServer: 'http://10.0.0.6:8080',
};
const base = `/api/proxy-configurations/${proxy.id}`;

async function openPlan(lang: 'en' | 'es', answer = plan) {
  const stub = stubFetch({
    [`POST ${base}/plan`]: { body: answer },
    [`POST ${base}/apply`]: { status: 202, body: { success: true, deploymentId: 'd1' } },
  });
  const onStarted = vi.fn();
  await renderWithProviders(<ManagementPanel proxy={proxy} onRedeployStarted={onStarted} />, {
    lang,
  });
  await act(async () => {
    fireEvent.click(screen.getByTestId('action-plan'));
  });
  const dialog = await screen.findByTestId('plan-dialog');
  await within(dialog).findByTestId('plan-view');
  return { ...stub, dialog, onStarted };
}

describe('the plan on the details page', () => {
  it.each([
    ['en', 'Show plan', '1 file will change.', 'nginx will be reloaded.', 'added', 'removed'],
    ['es', 'Ver plan', 'Cambiará 1 archivo.', 'nginx se recargará.', 'añadida', 'quitada'],
  ] as const)(
    'shows the diff, the commands and the reload (%s)',
    async (lang, label, changes, reload, added, removed) => {
      const { dialog } = await openPlan(lang);
      expect(screen.getByTestId('action-plan').textContent).toContain(label);
      expect(within(dialog).getByTestId('plan-changes').textContent).toBe(changes);
      expect(within(dialog).getByTestId('plan-reload').textContent).toBe(reload);
      const diff = within(dialog).getByTestId('plan-diff');
      // A region of its own, reachable by keyboard, named after the file.
      expect(diff.getAttribute('tabindex')).toBe('0');
      expect(diff.getAttribute('aria-label')).toContain(site);
      const ins = diff.querySelector('ins')!;
      const del = diff.querySelector('del')!;
      expect(ins.textContent).toBe(`${added}: +        proxy_pass http://10.0.0.6:8080;`);
      expect(del.textContent).toBe(`${removed}: -        proxy_pass http://10.0.0.5:8080;`);
      expect(ins.className).toContain('text-success');
      expect(del.className).toContain('text-destructive');
      const kinds = [...within(dialog).getByTestId('plan-commands').querySelectorAll('li')].map(
        (li) => li.getAttribute('data-kind'),
      );
      expect(kinds).toEqual(['test', 'reload', 'certificate-keep']);
    },
  );

  it.each([
    ['en', 'Your uploaded certificate is served; certbot is not run.', 'Write your uploaded'],
    ['es', 'Se sirve tu certificado subido; no se ejecuta certbot.', 'Escribir tu certificado'],
  ] as const)(
    'a proxy with an uploaded certificate: served, no certbot (%s)',
    async (lang, said, write) => {
      const upload = {
        ...plan,
        certificate: 'upload' as const,
        commands: [
          { kind: 'certificate-upload' as const, command: 'install -d -m 0700 /etc/portico/x' },
          { kind: 'test' as const, command: 'nginx -t' },
        ],
      };
      const { dialog } = await openPlan(lang, upload);
      expect(within(dialog).getByTestId('plan-certificate').textContent).toBe(said);
      expect(within(dialog).getByTestId('plan-commands').textContent).toContain(write);
    },
  );

  it('a plan of no change says so, and that nginx is still reloaded once', async () => {
    const same = {
      ...plan,
      changes: false,
      files: plan.files.map((f) => ({ ...f, change: 'unchanged' as const, diff: '' })),
    };
    const { dialog } = await openPlan('en', same);
    expect(within(dialog).getByTestId('plan-changes').textContent).toBe('No file will change.');
    expect(within(dialog).getByTestId('plan-reload').textContent).toContain('reloaded once');
    expect(within(dialog).queryByTestId('plan-diff')).toBeNull();
  });

  it.each([
    ['en', 'its content is not shown'],
    ['es', 'su contenido no se muestra'],
  ] as const)(
    'a file only root and nginx may read: said changed, its content never shown (%s)',
    async (lang, words) => {
      const secret = {
        path: '/etc/nginx/portico/htpasswd',
        kind: 'file' as const,
        change: 'update' as const,
        diff: '',
        tooLarge: false,
        private: true,
      };
      const { dialog } = await openPlan(lang, { ...plan, files: [secret] });
      expect(within(dialog).getByTestId('plan-private').textContent).toContain(words);
      expect(within(dialog).queryByTestId('plan-diff')).toBeNull();
    },
  );

  it.each([
    ['en', 'file · removed', '1 file will change.'],
    ['es', 'archivo · se elimina', 'Cambiará 1 archivo.'],
  ] as const)(
    'a users file the deployment removes: said removed, counted as a change (%s)',
    async (lang, badge, changes) => {
      const removed = {
        path: '/etc/nginx/portico-htpasswd/app.example.com',
        kind: 'file' as const,
        change: 'remove' as const,
        diff: '',
        tooLarge: false,
        private: true,
      };
      const { dialog } = await openPlan(lang, { ...plan, files: [removed] });
      const file = within(dialog).getByTestId('plan-file');
      expect(file.getAttribute('data-change')).toBe('remove');
      expect(file.textContent).toContain(badge);
      expect(within(dialog).getByTestId('plan-changes').textContent).toBe(changes);
      expect(within(dialog).queryByTestId('plan-diff')).toBeNull();
    },
  );

  it('Apply sends the plan fingerprint and follows the run', async () => {
    const { calls, dialog, onStarted } = await openPlan('en');
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('plan-apply'));
    });
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    expect(calls.find((c) => c.url === `${base}/apply`)?.body).toEqual({
      fingerprint: plan.fingerprint,
    });
  });
});

describe('the plan in the edit dialog', () => {
  const editable = {
    id: proxy.id,
    domain: proxy.domain,
    targetServer: 'http://10.0.0.5:8080',
    serverIp: proxy.serverIp,
    sshUser: proxy.sshUser,
    sshPort: proxy.sshPort,
  };
  const field = (id: string) => document.getElementById(id) as HTMLInputElement;

  async function openEdit(lang: 'en' | 'es') {
    const stub = stubFetch({
      [`POST ${base}/plan`]: { body: plan },
      [`PUT /api/user/proxy-configurations/${proxy.id}`]: { body: proxy },
      [`POST ${base}/apply`]: { status: 202, body: { success: true, deploymentId: 'd1' } },
    });
    const onOpenChange = vi.fn();
    await renderWithProviders(
      <EditProxyDialog proxy={editable} open onOpenChange={onOpenChange} />,
      {
        lang,
      },
    );
    return { ...stub, onOpenChange };
  }

  it.each([
    ['en', 'A plan shows a change of the target or the options.'],
    ['es', 'Un plan muestra un cambio de destino o de opciones.'],
  ] as const)(
    'another domain is not planned, and the dialog says why (%s)',
    async (lang, words) => {
      const { calls } = await openEdit(lang);
      fireEvent.change(field('edit-domain'), { target: { value: 'other.example.com' } });
      await act(async () => {
        fireEvent.click(screen.getByTestId('edit-proxy-plan'));
      });
      expect((await screen.findByTestId('edit-plan-only-target')).textContent).toContain(words);
      expect(calls.some((c) => c.url.endsWith('/plan'))).toBe(false);
    },
  );

  it('Back leaves the plan for the form, with what was typed, and saves nothing (es)', async () => {
    const { calls } = await openEdit('es');
    fireEvent.change(field('edit-target'), { target: { value: 'http://10.0.0.6:8080' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('edit-proxy-plan'));
    });
    await screen.findByTestId('plan-view');
    expect(screen.queryByTestId('edit-proxy-save')).toBeNull();
    fireEvent.click(screen.getByTestId('edit-plan-back'));
    expect(screen.queryByTestId('plan-view')).toBeNull();
    expect(screen.getByTestId('edit-proxy-save')).toBeTruthy();
    expect(field('edit-target').value).toBe('http://10.0.0.6:8080');
    expect(calls.some((c) => c.method === 'PUT' || c.url.endsWith('/apply'))).toBe(false);
  });

  it('a new target: its plan before saving, then Save and apply saves it and applies that plan', async () => {
    const { calls, onOpenChange } = await openEdit('en');
    fireEvent.change(field('edit-target'), { target: { value: 'http://10.0.0.6:8080' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('edit-proxy-plan'));
    });
    await screen.findByTestId('plan-view');
    expect(calls.find((c) => c.url === `${base}/plan`)?.body).toEqual({
      targetServer: 'http://10.0.0.6:8080',
    });
    // Nothing saved yet.
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await act(async () => {
      fireEvent.click(screen.getByTestId('edit-plan-apply'));
    });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    const order = calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url}`);
    expect(order.slice(-2)).toEqual([
      `PUT /api/user/proxy-configurations/${proxy.id}`,
      `POST ${base}/apply`,
    ]);
    expect(calls.at(-1)?.body).toEqual({ fingerprint: plan.fingerprint });
  });
});
