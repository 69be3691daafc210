// The limit of "Renew now" on a real lab server (sshd, nginx, certbot, Pebble), through the API
// (issue 35): the two forced renewals a day allowed for a proxy each give the server a new
// certificate (certbot's serial and notBefore change), the third is refused with its code and
// the minute it may run again, and the certificate on the server stays the one it was.
import { renderText } from '@portico/shared/i18n/text';
import { translate } from '@portico/shared/i18n/translate';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TLab, TLabServer } from '../../../../../testbed/src/lab';
import {
  certificateCalls,
  ownerWithRootProxy,
  waitUntil,
} from '../../../test/support/certificate-lab-helpers';
import { labAppPerFile } from '../../../test/support/lab-in-process-app';
import { waitForStatus } from '../../../test/support/proxies-test-helpers';
import type { TTestApp } from '../../../test/support/test-app';
import type { TestClient } from '../../../test/support/test-client';
import { certName } from '../../deploy/site-names';

const DAY = 24 * 60 * 60 * 1000;

const run = labAppPerFile({ servers: 1 });
let lab: TLab;
let s1: TLabServer;
let t: TTestApp;

beforeAll(() => {
  ({ lab, s1, t } = run);
});

/** certbot's current certificate on the server, as openssl reads it there. */
async function onServer(domain: string): Promise<{ serial: string; notBefore: string }> {
  const file = `/etc/letsencrypt/live/${certName(domain)}/cert.pem`;
  const r = await lab.exec(s1.name, [
    'openssl',
    'x509',
    '-in',
    file,
    '-noout',
    '-serial',
    '-startdate',
  ]);
  expect(r.code, r.stderr).toBe(0);
  return {
    serial: /serial=(\S+)/.exec(r.stdout)![1]!,
    notBefore: /notBefore=(.+)/.exec(r.stdout)![1]!.trim(),
  };
}

describe('Renew now on a lab server, limited', () => {
  let client: TestClient;
  let id: string;
  const domain = () => s1.domains[0]!;
  const { status } = certificateCalls(
    () => client,
    () => id,
  );
  const renew = (lang: 'en' | 'es') =>
    client.write('POST', `/api/proxy-configurations/${id}/certificate/renew`, undefined, {
      'accept-language': lang,
    });

  async function renewed(): Promise<{ deploymentId: string; at: string }> {
    const started = await renew('en');
    expect(started.statusCode, started.body).toBe(202);
    const { deploymentId } = started.json();
    const s = await waitUntil(
      status,
      (s) =>
        s.lastAction?.deploymentId === deploymentId && /completed|failed/.test(s.lastAction.status),
      'renewal did not end',
    );
    expect(s.lastAction.status).toBe('completed');
    return { deploymentId, at: s.lastAction.at };
  }

  beforeAll(async () => {
    ({ client, id } = await ownerWithRootProxy(t, lab.status, s1, domain()));
    expect((await client.write('POST', `/api/deploy/${id}`)).statusCode).toBe(202);
    expect((await waitForStatus(client, id, (s) => s !== 'deploying')).status).toBe('completed');
  });

  it('renews twice on the server, refuses the third with the time it may run again, and the certificate stays', async () => {
    const deployed = await onServer(domain());
    const first = await renewed();
    const afterFirst = await onServer(domain());
    expect(afterFirst.serial).not.toBe(deployed.serial);
    const second = await renewed();
    const afterSecond = await onServer(domain());
    expect(afterSecond.serial).not.toBe(afterFirst.serial);
    // A new certificate each time (the serial); never an older one (notBefore, to the second).
    const since = (c: { notBefore: string }) => Date.parse(c.notBefore);
    expect(since(afterFirst)).toBeGreaterThanOrEqual(since(deployed));
    expect(since(afterSecond)).toBeGreaterThanOrEqual(since(afterFirst));

    const retryAt = new Date(
      Math.ceil((Date.parse(first.at) + DAY) / 60_000) * 60_000,
    ).toISOString();
    for (const lang of ['en', 'es'] as const) {
      const refused = await renew(lang);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json()).toMatchObject({
        code: 'renewal_limited',
        message: translate(lang, 'errors.actionLimited.proxyDay', {
          max: 2,
          at: renderText(lang, { date: retryAt }),
        }),
      });
    }
    const shown = await status();
    expect(shown.lastAction.deploymentId).toBe(second.deploymentId);
    expect(shown.held.renew).toEqual({ limit: 'proxyDay', max: 2, retryAt });
    // The deployment's certificate and the two renewals, beside Let's Encrypt's 5 a week.
    expect(shown.recentlyIssued).toEqual({ count: 3, days: 7, max: 5 });
    // Nothing ran: a moment later the server still holds the second renewal's certificate.
    await new Promise((r) => setTimeout(r, 2000));
    expect(await onServer(domain())).toEqual(afterSecond);
    expect((await status()).lastAction.deploymentId).toBe(second.deploymentId);
  });
});
