// POST /api/test-ssh always answers within its deadline, on every way the other side can end or
// stall the attempt: peers that close or go silent right after the banner, a real OpenSSH cut in
// the middle of its key exchange, and a real OpenSSH given a stored password holding a NUL
// (saved before such passwords were refused). A NUL typed now is refused before any connection.
// On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutRelay, misbehavingPeer, type TPeer } from '../../../test/peers/test-peers';
import { startLocalSshd, type TLocalSshd } from '../../../test/peers/test-sshd';
import {
  insertConfiguration,
  signedInClient,
  sshCheckFailed,
  testSecretKeyFile,
  testSshBody,
} from '../../../test/support/ssh-test-fixtures';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';

const PASSWORD = 'Right-pw-1';

let sshd: TLocalSshd;
const peers: Record<string, TPeer> = {};

beforeAll(async () => {
  sshd = await startLocalSshd({ rootPassword: PASSWORD });
  peers['close-at-once'] = await misbehavingPeer('close-at-once');
  peers['banner-then-close'] = await misbehavingPeer('banner-then-close');
  peers['banner-then-silence'] = await misbehavingPeer('banner-then-silence');
  peers['cut mid key exchange, then close'] = await cutRelay(sshd, 'close');
  peers['cut mid key exchange, then silence'] = await cutRelay(sshd, 'silence');
});
afterAll(async () => {
  for (const peer of Object.values(peers)) await peer.close();
  await sshd?.stop();
});

/** The cause each peer gets; either is true of one that closes before saying anything. */
const CAUSE: Record<string, string[]> = {
  // ssh2 sees the close before writing ("no SSH handshake") or while writing (a reset).
  'close-at-once': ['checks.ssh.cause.protocol', 'checks.ssh.cause.closedEarly'],
  'banner-then-close': ['checks.ssh.cause.closedEarly'],
  'banner-then-silence': ['checks.ssh.cause.timedOut'],
  'cut mid key exchange, then close': ['checks.ssh.cause.closedEarly'],
  'cut mid key exchange, then silence': ['checks.ssh.cause.timedOut'],
};

describe.each(testDatabaseKinds())('POST /api/test-ssh ends on %s', (kind) => {
  let t: TTestApp;
  const keyFile = testSecretKeyFile();
  beforeAll(async () => {
    t = await createTestApp(kind, { config: { secretKeyFile: keyFile } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const body = (port: number, overrides: Record<string, unknown> = {}) =>
    testSshBody(port, PASSWORD, overrides);

  it('the real sshd takes the right password (so each failure below is the peer’s doing)', async () => {
    const { client } = await signedInClient(t.app);
    const response = await client.write('POST', '/api/test-ssh', body(sshd.port));
    expect(response.json()).toMatchObject({ connected: true, error: null });
  });

  for (const name of Object.keys(CAUSE)) {
    it(`a peer that does ${name}: answered, with the cause, in es and en`, async () => {
      // Both at once: a silent peer costs the whole 10 s deadline.
      await Promise.all(
        (['es', 'en'] as const).map(async (lang) => {
          const { client } = await signedInClient(t.app, lang);
          const response = await client.write('POST', '/api/test-ssh', body(peers[name]!.port));
          expect(response.statusCode).toBe(200);
          expect(response.json()).toMatchObject({ connected: false, fingerprint: null });
          const causes = CAUSE[name]!.map((key) => sshCheckFailed(lang, key));
          expect(causes).toContain(response.json().error);
        }),
      );
    });
  }

  it('a password holding a NUL is refused before any connection, saying why', async () => {
    const peer = peers['banner-then-close']!;
    const before = peer.connections();
    for (const lang of ['es', 'en'] as const) {
      const { client } = await signedInClient(t.app, lang);
      const response = await client.write(
        'POST',
        '/api/test-ssh',
        body(peer.port, { password: `${PASSWORD}\0` }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().issues).toEqual([
        { path: 'password', message: translate(lang, 'validation.sshPassword.control') },
      ]);
    }
    expect(peer.connections()).toBe(before);
  });

  it('a stored password holding a NUL (saved before the refusal) is not sent; it must be entered again', async () => {
    const peer = peers['banner-then-close']!;
    const before = peer.connections();
    const { client, userId } = await signedInClient(t.app, 'es');
    const configurationId = await insertConfiguration(t.database, keyFile, {
      userId,
      serverIp: '127.0.0.1',
      sshPort: peer.port,
      sshUser: 'root',
      password: `${PASSWORD}\0`,
    });
    const response = await client.write(
      'POST',
      '/api/test-ssh',
      body(peer.port, { password: undefined, configurationId }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'password_required',
      message: translate('es', 'checks.ssh.storedPasswordUnusable'),
    });
    expect(peer.connections()).toBe(before);
  });
});
