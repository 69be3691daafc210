import { once } from 'node:events';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPki, type TTestPki } from '../../test/support/test-pki';
import { secureContextFor, tlsHandshake } from './tls-probe';

const DOMAIN = 'shop.example.test';

describe('the TLS contexts of the site probes', () => {
  let pki: TTestPki;
  let server: tls.Server;
  let port: number;
  beforeAll(async () => {
    pki = createTestPki();
    const now = Date.now();
    const pair = pki.leaf({
      names: [DOMAIN],
      from: new Date(now - 86_400_000),
      to: new Date(now + 30 * 86_400_000),
    });
    server = tls.createServer({ key: pair.key, cert: pair.cert }, (socket) => socket.end());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    pki?.remove();
  });

  it('is made once per set of roots, and a set with other roots gets its own', () => {
    const roots = [...tls.rootCertificates, pki.caPem];
    const context = secureContextFor(roots);
    expect(secureContextFor([...roots])).toBe(context);
    expect(secureContextFor([...tls.rootCertificates])).not.toBe(context);
  });

  it('trusts exactly the roots it was asked with, whichever set came first', async () => {
    const target = { address: '127.0.0.1', domain: DOMAIN, httpsPort: port };
    const handshake = (ca: string[]) =>
      tlsHandshake(target, { ca, timeoutMs: 5_000, rejectUnauthorized: false });
    const withCa = [...tls.rootCertificates, pki.caPem];
    const withoutCa = [...tls.rootCertificates];
    for (let round = 0; round < 2; round++) {
      expect((await handshake(withCa)).authorized).toBe(true);
      const refused = await handshake(withoutCa);
      expect(refused.authorized).toBe(false);
      expect(refused.authorizationError).toMatch(
        /UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT/,
      );
    }
  });
});
