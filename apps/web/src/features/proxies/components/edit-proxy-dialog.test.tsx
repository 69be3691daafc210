import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sharedText as lookup } from '@/test/catalogs';
import { renderWithProviders } from '@/test/render';
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
