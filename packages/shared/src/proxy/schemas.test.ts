import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate';
import { ZTestSshInput } from './api';
import { ZEditProxyInput, ZServerInfoInput } from './schemas';

const edit = {
  domain: 'app.example.com',
  targetServer: 'http://10.0.0.5:8080',
  serverIp: '203.0.113.10',
  sshUser: 'root',
  sshPort: 22,
};

describe('ZEditProxyInput', () => {
  it.each([
    [{ domain: '' }, 'Domain is required'],
    [{ domain: 'bad_domain' }, 'Please enter a valid domain name'],
    [{ targetServer: '' }, 'Target server is required'],
    [{ targetServer: 'http://bad host' }, 'Please enter a valid URL'],
    [{ serverIp: '' }, 'Server IP is required'],
    [{ serverIp: 'not a host!' }, 'Please enter a valid IP address or hostname'],
    [{ sshUser: '' }, 'SSH user is required'],
    [{ sshPort: 'abc' }, 'Port must be a number'],
    [{ sshPort: 0 }, 'Port must be at least 1'],
    [{ sshPort: 65536 }, 'Port must be at most 65535'],
    [
      { serverIp: '198.022.07.013' },
      'Write each number of the address without leading zeros (198.18.7.11, not 198.018.007.011): a leading zero is read as octal and would reach another server.',
    ],
  ])('refuses %o', (patch, english) => {
    const result = ZEditProxyInput.safeParse({ ...edit, ...patch });
    expect(result.success).toBe(false);
    expect(translate('en', result.error?.issues[0]?.message ?? '')).toBe(english);
  });

  it('keeps the SSH port and lower-cases the domain', () => {
    expect(ZEditProxyInput.parse({ ...edit, domain: 'App.Example.com', sshPort: '2222' })).toEqual({
      ...edit,
      domain: 'app.example.com',
      sshPort: 2222,
    });
  });
});

const info = {
  serverIp: '203.0.113.10',
  domain: 'app.example.com',
  sshUser: 'root',
  sshPassword: 'pw',
  email: 'admin@example.com',
};

describe('ZServerInfoInput', () => {
  it.each([
    [{ serverIp: '256.1.1.1' }, 'Invalid IP address format'],
    [{ serverIp: '' }, 'This field is required'],
    [{ domain: 'localhost' }, 'Invalid domain format'],
    [{ domain: 'a.-b.com' }, 'Invalid domain format'],
    [{ sshPassword: '' }, 'This field is required'],
    [{ email: 'x' }, 'Please enter a valid email address'],
    [
      { sshUser: 'root; rm -rf /' },
      'Use a Linux user name: lowercase letters, digits, underscores and hyphens',
    ],
  ])('refuses %o', (patch, english) => {
    const result = ZServerInfoInput.safeParse({ ...info, ...patch });
    expect(result.success).toBe(false);
    expect(translate('en', result.error?.issues[0]?.message ?? '')).toBe(english);
  });

  it('defaults the SSH user to root', () => {
    const { sshUser: _omit, ...rest } = info;
    expect(ZServerInfoInput.parse(rest).sshUser).toBe('root');
  });
});

describe('control and line-break characters', () => {
  const refusal =
    'Remove the control or line-break character (a line break, tab, NUL or similar): it is not allowed anywhere in this field.';
  const fields = ['serverIp', 'domain', 'sshUser', 'email'] as const;

  it.each(['\n', '\r\n', '\t', '\0', '\u0085', '\u2028', '\u2029', '\u007F'])(
    'refuse %j at the end, at the start or inside, saying why',
    (c) => {
      for (const field of fields) {
        for (const value of [`${info[field]}${c}`, `${c}${info[field]}`, `a${c}${info[field]}`]) {
          const result = ZServerInfoInput.safeParse({ ...info, [field]: value });
          expect(result.success, `${field}=${JSON.stringify(value)}`).toBe(false);
          expect(translate('en', result.error?.issues[0]?.message ?? '')).toBe(refusal);
        }
      }
      const edit = ZEditProxyInput.safeParse({
        domain: 'app.example.com',
        targetServer: `http://10.0.0.5${c}`,
        serverIp: '203.0.113.10',
        sshUser: 'root',
      });
      expect(translate('en', edit.error?.issues[0]?.message ?? '')).toBe(refusal);
    },
  );

  it('trims plain spaces at the ends', () => {
    expect(ZServerInfoInput.parse({ ...info, domain: '  app.example.com ' }).domain).toBe(
      'app.example.com',
    );
  });

  it.each(['\0', 'a\nb', 'pw\r\n', '\u2028', '\u001B[0m'])(
    'refuse SSH password %j in Spanish and English',
    (password) => {
      const result = ZTestSshInput.safeParse({
        serverIp: '203.0.113.10',
        username: 'root',
        password,
      });
      expect(result.success).toBe(false);
      const key = result.error?.issues[0]?.message ?? '';
      expect(translate('en', key)).toMatch(/^The SSH password cannot contain control/);
      expect(translate('es', key)).toMatch(
        /^La contraseña SSH no puede contener caracteres de control/,
      );
    },
  );

  it('keeps an SSH password with spaces exactly as typed', () => {
    const parsed = ZTestSshInput.parse({
      serverIp: '203.0.113.10',
      username: 'root',
      password: ' pass word ',
    });
    expect(parsed.password).toBe(' pass word ');
  });
});
