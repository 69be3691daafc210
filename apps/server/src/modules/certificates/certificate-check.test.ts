import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import tls from 'node:tls';
import { translate } from '@portico/shared/i18n/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPki, type TTestPki } from '../../../test/support/test-pki';
import { checkCertificate } from './certificate-check';

const DOMAIN = 'shop.example.test';
const DAY = 24 * 60 * 60 * 1000;

async function listen(server: Server | tls.Server | http.Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as { port: number }).port;
}

function close(server: Server | tls.Server | http.Server, sockets?: Set<Socket>) {
  for (const s of sockets ?? []) s.destroy();
  return new Promise((resolve) => server.close(resolve));
}

/** A TLS server presenting `pair`, plus a plain HTTP server answering `httpAnswer`. */
async function site(
  pair: { key: string; cert: string },
  httpAnswer: (res: http.ServerResponse) => void,
) {
  const https = tls.createServer({ key: pair.key, cert: pair.cert }, (socket) => socket.end());
  const plain = http.createServer((_req, res) => httpAnswer(res));
  const httpsPort = await listen(https);
  const httpPort = await listen(plain);
  return {
    target: { address: '127.0.0.1', domain: DOMAIN, httpsPort, httpPort },
    close: async () => {
      await close(https);
      plain.closeAllConnections();
      await close(plain);
    },
  };
}

const redirect = (location: string) => (res: http.ServerResponse) => {
  res.writeHead(301, { location });
  res.end();
};

describe('the live certificate check', () => {
  let pki: TTestPki;
  const now = new Date();
  beforeAll(() => {
    pki = createTestPki();
  });
  afterAll(() => pki?.remove());

  it('records the served certificate, a verified chain and the redirect to HTTPS', async () => {
    const pair = pki.leaf({
      names: [DOMAIN, `www.${DOMAIN}`],
      from: new Date(now.getTime() - DAY),
      to: new Date(now.getTime() + 89 * DAY),
    });
    const s = await site(pair, redirect(`https://${DOMAIN}/`));
    try {
      const outcome = await checkCertificate(s.target, { ca: [pki.caPem], now: () => now });
      const x509 = new X509Certificate(pair.cert);
      expect(outcome.served).toEqual({
        fingerprint: x509.fingerprint256,
        notBefore: new Date(x509.validFrom).toISOString(),
        notAfter: new Date(x509.validTo).toISOString(),
        issuer: 'Portico Test CA',
        names: [DOMAIN, `www.${DOMAIN}`],
      });
      expect(outcome.check).toEqual({
        checkedAt: now.toISOString(),
        ok: true,
        problem: null,
        httpRedirects: true,
        httpProblem: null,
      });
    } finally {
      await s.close();
    }
  });

  it.each([
    {
      name: 'a certificate for other names',
      pair: () =>
        pki.leaf({
          names: ['other.example.test'],
          from: new Date(now.getTime() - DAY),
          to: new Date(now.getTime() + 30 * DAY),
        }),
      ca: () => [pki.caPem],
      key: 'certificates.problem.names',
      words: `is not valid for that name: it names other.example.test`,
    },
    {
      name: 'an expired certificate',
      pair: () =>
        pki.leaf({
          names: [DOMAIN],
          from: new Date(now.getTime() - 90 * DAY),
          to: new Date(now.getTime() - DAY),
        }),
      ca: () => [pki.caPem],
      key: 'certificates.problem.expired',
      words: `The certificate served for ${DOMAIN} has expired.`,
    },
    {
      name: 'a certificate from an authority not trusted',
      pair: () =>
        pki.leaf({
          names: [DOMAIN],
          from: new Date(now.getTime() - DAY),
          to: new Date(now.getTime() + 30 * DAY),
        }),
      ca: () => [],
      key: 'certificates.problem.untrusted',
      words: 'does not lead to a trusted root (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
    },
  ])('fails on $name, and still records what was served', async ({ pair, ca, key, words }) => {
    const made = pair();
    const s = await site(made, redirect(`https://${DOMAIN}/`));
    try {
      const outcome = await checkCertificate(s.target, { ca: ca(), now: () => now });
      expect(outcome.check.ok).toBe(false);
      expect(outcome.check.problem?.key).toBe(key);
      const problem = outcome.check.problem!;
      expect(translate('en', problem.key, problem.params)).toContain(words);
      expect(outcome.served?.fingerprint).toBe(new X509Certificate(made.cert).fingerprint256);
    } finally {
      await s.close();
    }
  });

  it('says so when HTTP answers without a redirect, or redirects elsewhere', async () => {
    const pair = pki.leaf({
      names: [DOMAIN],
      from: new Date(now.getTime() - DAY),
      to: new Date(now.getTime() + 30 * DAY),
    });
    const plain = await site(pair, (res) => res.end('hello'));
    const elsewhere = await site(pair, redirect('https://login.example.test/'));
    try {
      const a = await checkCertificate(plain.target, { ca: [pki.caPem], now: () => now });
      expect(a.check.ok).toBe(true);
      expect(a.check.httpRedirects).toBe(false);
      expect(translate('es', a.check.httpProblem!.key, a.check.httpProblem!.params)).toBe(
        `http://${DOMAIN}/ respondió 200 en lugar de redirigir a HTTPS.`,
      );
      const b = await checkCertificate(elsewhere.target, { ca: [pki.caPem], now: () => now });
      expect(b.check.httpRedirects).toBe(false);
      expect(b.check.httpProblem?.key).toBe('certificates.http.elsewhere');
    } finally {
      await plain.close();
      await elsewhere.close();
    }
  });

  it('fails with the reason when nothing answers, refused or silent, within its deadline', async () => {
    // A port that was free a moment ago refuses; a server that accepts and never speaks is silent.
    const probe = createTcpServer();
    const closedPort = await listen(probe);
    await close(probe);
    const sockets = new Set<Socket>();
    const silent = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    const silentPort = await listen(silent);
    try {
      const refused = await checkCertificate(
        { address: '127.0.0.1', domain: DOMAIN, httpsPort: closedPort, httpPort: closedPort },
        { ca: [], now: () => now, timeoutMs: 1000 },
      );
      expect(refused.served).toBeNull();
      expect(refused.check.problem?.key).toBe('certificates.problem.refused');
      expect(refused.check.httpRedirects).toBeNull();

      const quiet = await checkCertificate(
        { address: '127.0.0.1', domain: DOMAIN, httpsPort: silentPort, httpPort: silentPort },
        { ca: [], now: () => now, timeoutMs: 1000 },
      );
      expect(quiet.check.problem).toEqual({
        key: 'certificates.problem.timeout',
        params: { where: `127.0.0.1:${silentPort}`, seconds: 1 },
      });
      expect(quiet.check.httpProblem?.key).toBe('certificates.http.unreachable');
    } finally {
      await close(silent, sockets);
    }
  });
});
