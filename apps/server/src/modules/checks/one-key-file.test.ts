import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, signedInClient } from '../../../test/support/proxies-test-helpers';
import { createTestApp, type TTestApp } from '../../../test/support/test-app';
import { testDatabaseKinds } from '../../../test/support/test-database';

// app.ts gives every reader of stored secrets the one key file of config.secretKeyFile (a
// temporary one when none is set): a password saved through the proxies API is the one the
// resumed SSH test decrypts.
describe.each(testDatabaseKinds())('one secret key file for saving and testing on %s', (kind) => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('the resumed SSH test reads the password the wizard saved (no key file configured)', async () => {
    const { client } = await signedInClient(t);
    const { id } = await createProxy(client, { serverIp: '127.0.0.1', sshPort: 1 });
    const resumed = await client.write('POST', '/api/test-ssh', {
      serverIp: '127.0.0.1',
      port: 1,
      username: 'root',
      configurationId: id,
    });
    // Decrypted, then refused by the closed port: not a 500 about the key.
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({ connected: false });
    expect(resumed.body).not.toMatch(/secret|key file/i);
  });
});
