import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { removeTestTempDir, testTempDir } from '../test/support/temp-dir';
import { ConfigError, configWarnings, loadConfig } from './config';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe(join(process.cwd(), 'data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.registration).toBe('open');
    expect(config.require2fa).toBe('off');
    expect(config.trustProxy).toBe(false);
    expect(config.secretKeyFile).toBe(join(process.cwd(), 'data', 'secret.key'));
    expect(config.acmeDirectoryUrl).toBe('https://acme-v02.api.letsencrypt.org/directory');
    expect(config.dnsServers).toEqual([]);
    expect(config.smtpUrl).toBeUndefined();
    expect(config.mailFrom).toBeUndefined();
    expect(config.webhookAllowPrivate).toBe(false);
    expect(config.logLevel).toBe('info');
  });

  it('reads every variable', () => {
    const dir = testTempDir('portico-config-');
    onTestFinished(() => removeTestTempDir(dir));
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, 'x');
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      PORTICO_DATA_DIR: dir,
      DATABASE_URL: 'postgres://u:p@127.0.0.1/db',
      PORTICO_REGISTRATION: 'closed',
      PORTICO_REQUIRE_2FA: 'Admins',
      PORTICO_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      PORTICO_SECRET_KEY_FILE: join(dir, 'k'),
      PORTICO_SESSION_SECRET: 'a'.repeat(32),
      ACME_DIRECTORY_URL: 'https://127.0.0.1:14000/dir',
      PORTICO_ACME_PROFILE: 'shortlived',
      PORTICO_EXTRA_CA_FILE: ca,
      PORTICO_ACME_CA_BUNDLE: ca,
      PORTICO_DNS_SERVERS: '198.18.0.53,127.0.0.1:5353',
      PORTICO_SMTP_URL: 'smtps://alerts:pw@mail.example.com:465',
      PORTICO_MAIL_FROM: 'Portico <portico@example.com>',
      PORTICO_WEBHOOK_ALLOW_PRIVATE: 'TRUE',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: dir,
      registration: 'closed',
      require2fa: 'admins',
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      secretKeyFile: join(dir, 'k'),
      acmeProfile: 'shortlived',
      acmeCaBundle: ca,
      extraCaFile: ca,
      dnsServers: ['198.18.0.53', '127.0.0.1:5353'],
      smtpUrl: 'smtps://alerts:pw@mail.example.com:465',
      mailFrom: 'Portico <portico@example.com>',
      webhookAllowPrivate: true,
      logLevel: 'debug',
    });
  });

  it('reads another ACME CA with its External Account Binding (PORTICO_ACME_SERVER wins)', () => {
    const config = loadConfig({
      ACME_DIRECTORY_URL: 'https://old.example/dir',
      PORTICO_ACME_SERVER: 'https://acme.zerossl.com/v2/DV90',
      PORTICO_ACME_EAB_KID: 'kid_ABC-123.x',
      PORTICO_ACME_EAB_HMAC_KEY: 'aGVsbG8td29ybGQtaG1hYy1rZXk_',
    });
    expect(config.acmeDirectoryUrl).toBe('https://acme.zerossl.com/v2/DV90');
    expect(config.acmeEab).toEqual({
      kid: 'kid_ABC-123.x',
      hmacKey: 'aGVsbG8td29ybGQtaG1hYy1rZXk_',
    });
    expect(loadConfig({}).acmeEab).toBeUndefined();
  });

  it('refuses half a binding, a bad key id or key, never echoing the key', () => {
    expect(problemsOf({ PORTICO_ACME_EAB_KID: 'kid1' })).toEqual([
      expect.stringMatching(/^PORTICO_ACME_EAB_KID, PORTICO_ACME_EAB_HMAC_KEY: set both/),
    ]);
    const problems = problemsOf({
      PORTICO_ACME_EAB_KID: 'kid; rm -rf /',
      PORTICO_ACME_EAB_HMAC_KEY: 'hunter4 $(reboot)',
      PORTICO_ACME_SERVER: "https://x.example/'dir",
    });
    expect(problems).toEqual([
      expect.stringMatching(/^PORTICO_ACME_SERVER: must be an http/),
      expect.stringMatching(/^PORTICO_ACME_EAB_KID: must be a key id/),
      expect.stringMatching(/^PORTICO_ACME_EAB_HMAC_KEY: must be the base64url HMAC key/),
    ]);
    expect(problems.join('\n')).not.toContain('hunter4');
  });

  it('needs a sender when e-mail is configured', () => {
    expect(problemsOf({ PORTICO_SMTP_URL: 'smtp://mail.example.com' })).toEqual([
      expect.stringMatching(/^PORTICO_MAIL_FROM: must be set when PORTICO_SMTP_URL is/),
    ]);
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
  ])('reads PORTICO_TRUST_PROXY=%s', (raw, expected) => {
    expect(loadConfig({ PORTICO_TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it.each([
    ['PORT', 'abc', /^PORT: must be a whole number between 0 and 65535 \(got "abc"\)$/],
    ['PORT', '70000', /^PORT: /],
    ['PORTICO_REGISTRATION', 'maybe', /^PORTICO_REGISTRATION: must be "open" or "closed"/],
    ['PORTICO_REQUIRE_2FA', 'yes', /^PORTICO_REQUIRE_2FA: must be "off", "admins" or "all"/],
    ['PORTICO_TRUST_PROXY', 'sometimes', /^PORTICO_TRUST_PROXY: must be false, true/],
    ['DATABASE_URL', 'mysql://x', /^DATABASE_URL: must start with postgres/],
    ['ACME_DIRECTORY_URL', 'ftp://x', /^ACME_DIRECTORY_URL: must be an http/],
    ['PORTICO_ACME_PROFILE', 'short lived;id', /^PORTICO_ACME_PROFILE: must be a profile name/],
    ['PORTICO_EXTRA_CA_FILE', '/nonexistent/ca.pem', /^PORTICO_EXTRA_CA_FILE: file does not exist/],
    [
      'PORTICO_ACME_CA_BUNDLE',
      '/nonexistent/ca.pem',
      /^PORTICO_ACME_CA_BUNDLE: file does not exist/,
    ],
    ['PORTICO_DNS_SERVERS', '1.2.3.4,nope', /^PORTICO_DNS_SERVERS: "nope" is not an IP address/],
    ['LOG_LEVEL', 'loud', /^LOG_LEVEL: must be one of/],
    ['PORTICO_SMTP_URL', 'http://mail.example.com', /^PORTICO_SMTP_URL: must be an smtp:\/\//],
    ['PORTICO_MAIL_FROM', 'Portico\nBcc: x@y.z', /^PORTICO_MAIL_FROM: must be an e-mail address/],
    ['PORTICO_MAIL_FROM', 'not an address', /^PORTICO_MAIL_FROM: must be an e-mail address/],
    ['PORTICO_WEBHOOK_ALLOW_PRIVATE', 'yes', /^PORTICO_WEBHOOK_ALLOW_PRIVATE: must be "true"/],
    ['PORTICO_SESSION_SECRET', 'short', /^PORTICO_SESSION_SECRET: must be at least 32/],
  ])('refuses %s=%s naming the variable', (name, value, message) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('never echoes secret values', () => {
    const problems = problemsOf({
      PORTICO_SESSION_SECRET: 'hunter2',
      DATABASE_URL: 'my:secret',
      PORTICO_SMTP_URL: 'mail://user:hunter3@x',
    });
    expect(problems.join('\n')).not.toMatch(/hunter2|hunter3|secret/);
    expect(problems).toHaveLength(3);
  });

  it('lists every bad variable at once', () => {
    expect(problemsOf({ PORT: '-1', LOG_LEVEL: 'x' })).toHaveLength(2);
  });
});

describe('configWarnings', () => {
  it('warns that trusting every proxy hop lets clients choose their address', () => {
    expect(configWarnings({ trustProxy: true })).toEqual([
      expect.stringContaining('PORTICO_TRUST_PROXY=true trusts every X-Forwarded-For entry'),
    ]);
    for (const trustProxy of [false, 1, ['127.0.0.1']]) {
      expect(configWarnings({ trustProxy })).toEqual([]);
    }
  });

  it('reads PORTICO_SSH_ALLOW_LOOPBACK (off by default) and warns when it is on', () => {
    expect(loadConfig({}).sshAllowLoopback).toBe(false);
    expect(loadConfig({ PORTICO_SSH_ALLOW_LOOPBACK: 'true' }).sshAllowLoopback).toBe(true);
    expect(problemsOf({ PORTICO_SSH_ALLOW_LOOPBACK: 'yes' })).toEqual([
      'PORTICO_SSH_ALLOW_LOOPBACK: must be "true" or "false" (got "yes")',
    ]);
    expect(configWarnings({ trustProxy: false, sshAllowLoopback: true })).toEqual([
      expect.stringContaining('PORTICO_SSH_ALLOW_LOOPBACK=true lets every signed-in user'),
    ]);
  });

  it('reads PORTICO_ALLOW_CUSTOM_NGINX (off by default) and warns when it is on', () => {
    expect(loadConfig({}).allowCustomNginx).toBe(false);
    expect(loadConfig({ PORTICO_ALLOW_CUSTOM_NGINX: 'true' }).allowCustomNginx).toBe(true);
    expect(problemsOf({ PORTICO_ALLOW_CUSTOM_NGINX: 'yes' })).toEqual([
      'PORTICO_ALLOW_CUSTOM_NGINX: must be "true" or "false" (got "yes")',
    ]);
    expect(configWarnings({ trustProxy: false, allowCustomNginx: true })).toEqual([
      expect.stringContaining('PORTICO_ALLOW_CUSTOM_NGINX=true lets whoever may edit a proxy'),
    ]);
  });

  it('reads PORTICO_DEPLOY_WORKERS: 10 by default, 0 to 64', () => {
    expect(loadConfig({}).deployWorkers).toBe(10);
    expect(loadConfig({ PORTICO_DEPLOY_WORKERS: '0' }).deployWorkers).toBe(0);
    expect(loadConfig({ PORTICO_DEPLOY_WORKERS: ' 64 ' }).deployWorkers).toBe(64);
    for (const bad of ['65', '-1', '2.5', 'many']) {
      expect(problemsOf({ PORTICO_DEPLOY_WORKERS: bad })).toEqual([
        `PORTICO_DEPLOY_WORKERS: must be a whole number between 0 and 64 (got "${bad}")`,
      ]);
    }
  });

  it('reads PORTICO_REQUEST_TIMEOUT: 30 seconds by default, 1 to 3600', () => {
    expect(loadConfig({}).requestTimeoutSeconds).toBe(30);
    expect(loadConfig({ PORTICO_REQUEST_TIMEOUT: '5' }).requestTimeoutSeconds).toBe(5);
    for (const bad of ['0', '3601', '1.5', 'soon']) {
      expect(problemsOf({ PORTICO_REQUEST_TIMEOUT: bad })).toEqual([
        `PORTICO_REQUEST_TIMEOUT: must be a whole number between 1 and 3600 (got "${bad}")`,
      ]);
    }
  });

  it('reads the per-account limits PORTICO_MAX_*, each 0 to 1000000', () => {
    expect(loadConfig({}).limits).toEqual({
      proxies: 1000,
      servers: 50,
      apiTokens: 50,
      webhooks: 20,
    });
    expect(
      loadConfig({
        PORTICO_MAX_PROXIES: '3',
        PORTICO_MAX_SERVERS: '0',
        PORTICO_MAX_API_TOKENS: ' 7 ',
        PORTICO_MAX_WEBHOOKS: '1',
      }).limits,
    ).toEqual({ proxies: 3, servers: 0, apiTokens: 7, webhooks: 1 });
    for (const bad of ['-1', '1000001', 'lots']) {
      expect(problemsOf({ PORTICO_MAX_PROXIES: bad })).toEqual([
        `PORTICO_MAX_PROXIES: must be a whole number between 0 and 1000000 (got "${bad}")`,
      ]);
    }
  });
});
