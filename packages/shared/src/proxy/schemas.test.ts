import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate';
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

describe('ZServerInfoInput', () => {
  const info = {
    serverIp: '203.0.113.10',
    domain: 'app.example.com',
    sshUser: 'root',
    sshPassword: 'pw',
    email: 'admin@example.com',
  };
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
