import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sharedText as lookup } from '@/test/catalogs';
import { renderWithProviders } from '@/test/render';
import { aServer } from '@/test/ssh-server';
import { EditProxyDialog, editDefaults } from './edit-proxy-dialog';

const proxy = {
  id: '00000000-0000-4000-8000-000000000001',
  domain: 'app.example.com',
  targetServer: 'http://10.0.0.5:8080',
  serverIp: '203.0.113.10',
  sshUser: 'root',
  sshPort: 22,
};

const ids = {
  domain: 'edit-domain',
  targetServer: 'edit-target',
  serverIp: 'edit-host',
  sshUser: 'edit-user',
  sshPort: 'edit-port',
} as const;

// The edit dialog's messages with their English wording (docs/PRODUCT.md#validation-rules).
const cases = [
  { field: 'domain', value: '', key: 'validation.edit.domainRequired', en: 'Domain is required' },
  {
    field: 'domain',
    value: 'not a domain',
    key: 'validation.edit.domainInvalid',
    en: 'Please enter a valid domain name',
  },
  {
    field: 'targetServer',
    value: '',
    key: 'validation.edit.targetRequired',
    en: 'Target server is required',
  },
  {
    field: 'targetServer',
    value: 'ht tp://x',
    key: 'validation.edit.targetInvalid',
    en: 'Please enter a valid URL',
  },
  {
    field: 'serverIp',
    value: '',
    key: 'validation.edit.serverIpRequired',
    en: 'Server IP is required',
  },
  {
    field: 'serverIp',
    value: 'bad host!',
    key: 'validation.edit.serverIpInvalid',
    en: 'Please enter a valid IP address or hostname',
  },
  {
    field: 'sshUser',
    value: '',
    key: 'validation.edit.sshUserRequired',
    en: 'SSH user is required',
  },
  { field: 'sshPort', value: 'abc', key: 'validation.port.number', en: 'Port must be a number' },
  { field: 'sshPort', value: '0', key: 'validation.port.min', en: 'Port must be at least 1' },
  {
    field: 'sshPort',
    value: '65536',
    key: 'validation.port.max',
    en: 'Port must be at most 65535',
  },
] as const;

function input(field: keyof typeof ids): HTMLInputElement {
  const el = document.getElementById(ids[field]);
  if (!(el instanceof HTMLInputElement)) throw new Error(`no input ${field}`);
  return el;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('edit defaults', () => {
  it('starts empty with root and port 22 when nothing is known', () => {
    expect(editDefaults({ id: 'x' })).toEqual({
      domain: '',
      targetServer: '',
      serverIp: '',
      sshUser: 'root',
      sshPort: '22',
    });
  });
});

describe.each(['es', 'en'] as const)('edit proxy dialog in %s', (lang) => {
  it.each(cases)('shows "$en" for $field = "$value"', async ({ field, value, key, en }) => {
    await renderWithProviders(<EditProxyDialog proxy={proxy} open onOpenChange={() => {}} />, {
      lang,
    });
    expect(input('domain').value).toBe('app.example.com');
    fireEvent.change(input(field), { target: { value } });
    fireEvent.submit(document.getElementById('edit-proxy-form')!);
    const expected = lang === 'en' ? en : lookup('es', key);
    await waitFor(() =>
      expect(document.getElementById(`${ids[field]}-error`)?.textContent).toBe(expected),
    );
    expect(input(field).getAttribute('aria-invalid')).toBe('true');
  });
});

describe('one name per thing', () => {
  it.each([
    ['en', 'SSH Host', 'The server IP you gave in the wizard.'],
    ['es', 'Host SSH', 'La IP del servidor que indicaste en el asistente.'],
  ] as const)("the SSH Host is tied to the wizard's server IP (%s)", async (lang, label, hint) => {
    await renderWithProviders(<EditProxyDialog proxy={proxy} open onOpenChange={() => {}} />, {
      lang,
    });
    expect(screen.getByLabelText(label)).toBe(input('serverIp'));
    const described = input('serverIp').getAttribute('aria-describedby') ?? '';
    const texts = described.split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(texts).toContain(hint);
  });
});

describe('edit proxy dialog and the server', () => {
  it('sends the port, shows Saving... and puts a taken domain on the domain field', async () => {
    let answer: (res: Response) => void = () => {};
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
      if (String(url) === '/api/csrf-token') return Response.json({ token: 't' });
      return new Promise<Response>((resolve) => (answer = resolve));
    });
    const onOpenChange = vi.fn();
    await renderWithProviders(<EditProxyDialog proxy={proxy} open onOpenChange={onOpenChange} />, {
      lang: 'en',
    });
    fireEvent.change(input('sshPort'), { target: { value: '2222' } });
    fireEvent.click(screen.getByTestId('edit-proxy-save'));
    await waitFor(() =>
      expect(screen.getByTestId('edit-proxy-save').textContent).toBe('Saving...'),
    );
    const put = await waitFor(() => {
      const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
      expect(call).toBeDefined();
      return call;
    });
    expect(put?.[0]).toBe(`/api/user/proxy-configurations/${proxy.id}`);
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({
      domain: 'app.example.com',
      targetServer: 'http://10.0.0.5:8080',
      serverIp: '203.0.113.10',
      sshUser: 'root',
      sshPort: 2222,
    });
    answer(
      Response.json(
        {
          statusCode: 409,
          code: 'domain_taken',
          message: 'That domain is already configured in Portico.',
        },
        { status: 409 },
      ),
    );
    await waitFor(() =>
      expect(document.getElementById('edit-domain-error')?.textContent).toBe(
        'That domain is already configured in Portico.',
      ),
    );
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByTestId('edit-proxy-save').textContent).toBe('Save Changes');
  });
});

describe('edit proxy dialog: what an edit does to the saved password', () => {
  it.each([
    ['user', 'en', 'Changing the server IP, SSH port or SSH user clears the saved SSH password'],
    ['admin', 'en', "clears the owner's saved SSH password"],
    ['user', 'es', 'borra la contraseña SSH guardada'],
    ['admin', 'es', 'borra la contraseña SSH guardada del propietario'],
  ] as const)('the %s form says so in %s', async (mode, lang, text) => {
    await renderWithProviders(
      <EditProxyDialog proxy={proxy} open onOpenChange={() => {}} mode={mode} />,
      { lang },
    );
    expect(screen.getByTestId('edit-credential-note').textContent).toContain(text);
  });
});

const serverA = aServer({
  id: '00000000-0000-4000-8000-00000000000a',
  name: 'web-1',
  host: '198.51.100.7',
});
const serverB = aServer({
  id: '00000000-0000-4000-8000-00000000000b',
  name: 'web-2',
  host: '192.0.2.44',
  port: 2200,
});

/** Answers the saved servers' list, and the PUT with the proxy; returns the PUT bodies. */
function serversApi() {
  const puts: unknown[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    if (String(url) === '/api/csrf-token') return Response.json({ token: 't' });
    if (String(url) === '/api/ssh-servers')
      return Response.json({ servers: [serverA, serverB], nextCursor: null });
    if (init?.method === 'PUT') {
      puts.push(JSON.parse(String(init.body)));
      return Response.json({ ...proxy, id: proxy.id });
    }
    return Response.json({}, { status: 404 });
  });
  return puts;
}

const choice = () => screen.getByTestId('edit-server-choice') as HTMLSelectElement;

describe.each([
  ['en', 'Server', 'Typed address', 'clears the SSH password saved on the proxy itself'],
  ['es', 'Servidor', 'Dirección escrita', 'borra la contraseña SSH guardada en el propio proxy'],
] as const)('edit proxy dialog: moving to a saved server (%s)', (lang, label, typed, note) => {
  it('choosing a saved server hides the typed fields and sends its id, not what was typed', async () => {
    const puts = serversApi();
    await renderWithProviders(<EditProxyDialog proxy={proxy} open onOpenChange={() => {}} />, {
      lang,
    });
    expect(screen.getByLabelText(label)).toBe(choice());
    expect(choice().value).toBe('');
    expect(choice().options[0]?.textContent).toBe(typed);
    await waitFor(() => expect(choice().options).toHaveLength(3));
    expect(choice().options[2]?.textContent).toBe('web-2 · deploy@192.***.***.44');
    fireEvent.change(input('serverIp'), { target: { value: '203.0.113.99' } });
    fireEvent.change(input('sshUser'), { target: { value: 'typed' } });
    expect(screen.queryByTestId('edit-server-moving-note')).toBeNull();
    fireEvent.change(choice(), { target: { value: serverB.id } });
    expect(document.getElementById('edit-host')).toBeNull();
    expect(document.getElementById('edit-user')).toBeNull();
    expect(document.getElementById('edit-port')).toBeNull();
    expect(screen.getByTestId('edit-server-moving-note').textContent).toContain(note);
    fireEvent.click(screen.getByTestId('edit-proxy-save'));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      domain: 'app.example.com',
      targetServer: 'http://10.0.0.5:8080',
      sshServerId: serverB.id,
      serverIp: '192.0.2.44',
      sshUser: 'deploy',
      sshPort: 2200,
    });
  });

  it('a proxy on a saved server opens with it chosen; the typed address sends no id', async () => {
    const puts = serversApi();
    const onServer = {
      ...proxy,
      serverIp: '198.51.100.7',
      sshUser: 'deploy',
      sshServerId: serverA.id,
    };
    await renderWithProviders(<EditProxyDialog proxy={onServer} open onOpenChange={() => {}} />, {
      lang,
    });
    expect(choice().value).toBe(serverA.id);
    expect(document.getElementById('edit-host')).toBeNull();
    expect(screen.queryByTestId('edit-server-moving-note')).toBeNull();
    await waitFor(() => expect(choice().options).toHaveLength(3));
    expect(choice().value).toBe(serverA.id);
    fireEvent.change(choice(), { target: { value: '' } });
    expect(input('serverIp').value).toBe('198.51.100.7');
    fireEvent.change(input('serverIp'), { target: { value: '203.0.113.20' } });
    fireEvent.click(screen.getByTestId('edit-proxy-save'));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      domain: 'app.example.com',
      targetServer: 'http://10.0.0.5:8080',
      serverIp: '203.0.113.20',
      sshUser: 'deploy',
      sshPort: 22,
    });
  });

  it('the admin form offers the owner’s saved servers only, and moves the proxy onto one', async () => {
    const owner = '00000000-0000-4000-8000-0000000000f1';
    const reads: string[] = [];
    const puts: { url: string; body: unknown }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
      const address = String(url);
      if (address === '/api/csrf-token') return Response.json({ token: 't' });
      if (address.startsWith('/api/ssh-servers')) {
        reads.push(address);
        return Response.json({ items: [serverB], nextCursor: null, total: 1 });
      }
      if (init?.method === 'PUT') {
        puts.push({ url: address, body: JSON.parse(String(init.body)) });
        return Response.json({ ...proxy, id: proxy.id });
      }
      return Response.json({}, { status: 404 });
    });
    await renderWithProviders(
      <EditProxyDialog
        proxy={{ ...proxy, userId: owner }}
        open
        onOpenChange={() => {}}
        mode="admin"
        owner={{ username: 'ana', email: 'ana@example.com' }}
      />,
      { lang },
    );
    await waitFor(() => expect(choice().options).toHaveLength(2));
    // One page of the owner's servers: an admin's own list is everyone's.
    expect(reads).toEqual([`/api/ssh-servers?userId=${owner}&limit=200`]);
    expect(choice().options[1]?.textContent).toBe('web-2 · deploy@192.***.***.44');
    fireEvent.change(choice(), { target: { value: serverB.id } });
    expect(document.getElementById('edit-host')).toBeNull();
    expect(screen.getByTestId('edit-server-moving-note').textContent).toContain(note);
    fireEvent.click(screen.getByTestId('edit-proxy-save'));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      url: `/api/admin/proxy-configurations/${proxy.id}`,
      body: {
        domain: 'app.example.com',
        targetServer: 'http://10.0.0.5:8080',
        sshServerId: serverB.id,
        serverIp: '192.0.2.44',
        sshUser: 'deploy',
        sshPort: 2200,
      },
    });
  });
});
