// What Portico shows is what the server has: a run that fails at each step after its
// first write leaves the server as it leaves it (the previous site back after an nginx -t
// refusal), and Portico records and shows exactly that (site files, whether nginx loads them,
// HTTPS, the certificate and its expiry) with the failure beside it. Then Reset state and a
// delete with removal (as the dialog sends it) leave no trace of the site on the server, nginx
// -t passes and the unrelated site serves what it served. In-process app on PGlite (its
// settings are changed for the verification drill), lab server s1 with an unrelated site.
import type { TLanguage } from '@portico/shared/api-error';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type TLab, type TLabServer } from '../../../../testbed/src/lab';
import type { TDatabase } from '../../src/db/client';
import type { TEngineSettings } from '../../src/deploy/engine/types';
import type { HttpClient } from '../support/lab-app-helpers';
import { buildTestApp, TEST_APP_OPTIONS } from '../support/test-app';
import { createTestDatabase } from '../support/test-database';
import {
  proxyBody,
  registered,
  runToEnd,
  saveProxy,
  unrelatedSite,
  uploadScript,
} from './drill-helpers';
import { expectShownAsOnServer, resetAndDelete, shownOf } from './site-truth';

let lab: TLab;
let s1: TLabServer;
let settings: TEngineSettings;
let app: Awaited<ReturnType<typeof buildTestApp>>;
let database: TDatabase;
let client: HttpClient;

beforeAll(async () => {
  lab = await startLab({ servers: 1, variants: { s1: ['existing-site'] } });
  [s1] = lab.status.servers as [TLabServer];
  settings = {
    acmeDirectoryUrl: lab.status.acmeDirectoryUrl,
    extraCaFile: lab.status.caRootPath,
    dnsServers: [lab.status.dnsServer],
  };
  database = (await createTestDatabase('pglite')).database;
  app = await buildTestApp({ ...TEST_APP_OPTIONS, database, deploy: { settings } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  client = await registered(base, 'truthful');
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await lab?.stop();
});

const shown = (id: string) => shownOf(client, id);
const expectShown = (id: string, domain: string) =>
  expectShownAsOnServer(lab, s1, client, id, domain);

/** A stand-in certbot in front of the real one (root's PATH has /usr/local/sbin first). */
async function withCertbot<T>(script: string, work: () => Promise<T>): Promise<T> {
  await lab.exec(
    s1.name,
    ['bash', '-c', 'cat > /usr/local/sbin/certbot && chmod 755 /usr/local/sbin/certbot'],
    script,
  );
  try {
    return await work();
  } finally {
    await lab.exec(s1.name, ['rm', '-f', '/usr/local/sbin/certbot']);
  }
}

async function drill(
  name: string,
  language: TLanguage,
  prepare?: (id: string) => Promise<void>,
  during: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
) {
  const domain = `${name}.s1.portico.test`;
  await lab.point(domain, s1.name);
  const id = await saveProxy(client, proxyBody(lab, s1, domain));
  await prepare?.(id);
  const before = await unrelatedSite(lab, s1);
  const run = await during(() => runToEnd(client, id, language));
  expect(run.status, run.text).toBe('failed');

  const after = await shown(id);
  expect(after).toMatchObject({ status: 'failed', lastDeployedAt: null });
  expect(after.lastFailure).toMatchObject({ deploymentId: run.deploymentId });
  expect(await unrelatedSite(lab, s1)).toEqual(before);
  return { id, domain, run, before };
}

describe('a run that fails after writing to the server', () => {
  it('certbot fails: the HTTP site is there and enabled, no certificate, no HTTPS (en)', async () => {
    const refuse = `#!/bin/sh
if [ "$1" = certonly ]; then echo "An unexpected error occurred: the drill refuses"; exit 1; fi
exec /usr/bin/certbot "$@"
`;
    const d = await drill('fail-certbot', 'en', undefined, (work) => withCertbot(refuse, work));
    expect((await shown(d.id)).lastFailure).toMatchObject({
      code: 'certbot_failed',
      step: 'certificate',
    });
    const { truth, shown: view } = await expectShown(d.id, d.domain);
    expect(truth).toMatchObject({ https: false, certificate: [], servesHttps: false });
    expect(truth.proxiedOverHttp).toBe(true);
    expect(view.serverSites[0]).toMatchObject({ enabled: true, https: false, certificate: null });
    await resetAndDelete(lab, s1, client, d.id, d.domain, d.before);
  });

  it('the HTTPS site fails nginx -t: the HTTP site is put back, the certificate stays recorded (es)', async () => {
    // The real certbot, then the new key made unreadable: nginx -t refuses the HTTPS site.
    const breakKey = `#!/bin/sh
/usr/bin/certbot "$@"; rc=$?
if [ "$rc" = 0 ] && [ "$1" = certonly ]; then
  for a in "$@"; do if [ "$prev" = --cert-name ]; then name=$a; fi; prev=$a; done
  echo "not a key" > "$(readlink -f "/etc/letsencrypt/live/$name/privkey.pem")"
fi
exit $rc
`;
    const d = await drill('fail-https-site', 'es', undefined, (work) =>
      withCertbot(breakKey, work),
    );
    expect((await shown(d.id)).lastFailure).toMatchObject({
      code: 'nginx_config_invalid',
      step: 'https-site',
    });
    expect(d.run.last.message).toMatch(/^nginx rechazó la nueva configuración/);
    const { truth, shown: view } = await expectShown(d.id, d.domain);
    expect(truth).toMatchObject({ https: false, servesHttps: false, proxiedOverHttp: true });
    expect(truth.certificate.length).toBeGreaterThan(0);
    expect(view.serverSites[0].certificate.name).toBe(d.domain);
    await resetAndDelete(lab, s1, client, d.id, d.domain, d.before);
  });

  it('the custom script fails: a working HTTPS site is shown as such, failed beside it (es); reset, delete with removal', async () => {
    const d = await drill('fail-script', 'es', (id) =>
      uploadScript(client, id, 'fails.sh', 'echo about to fail\nexit 3\n'),
    );
    const failure = (await shown(d.id)).lastFailure;
    expect(failure).toMatchObject({ code: 'custom_script_failed', step: 'custom-script' });
    // The reader's language, not the run's: this client reads in English.
    expect(failure.message).toMatch(/^The custom script exited with status 3/);
    const { truth, shown: view } = await expectShown(d.id, d.domain);
    expect(truth).toMatchObject({ https: true, servesHttps: true });
    expect(view).toMatchObject({ sslConfigured: true, status: 'failed' });
    expect(view.serverSites[0]).toMatchObject({ enabled: true, https: true });
    await resetAndDelete(lab, s1, client, d.id, d.domain, d.before);
  });

  it('the verification fails: the HTTPS site the server serves is shown, failed beside it (en)', async () => {
    const d = await drill('fail-verify', 'en', undefined, async (work) => {
      // Portico no longer trusts the lab CA: it cannot verify what the server serves well.
      settings.extraCaFile = lab.status.caListenerCertPath;
      try {
        return await work();
      } finally {
        settings.extraCaFile = lab.status.caRootPath;
      }
    });
    expect((await shown(d.id)).lastFailure).toMatchObject({
      code: 'verification_failed',
      step: 'verify',
    });
    const { truth } = await expectShown(d.id, d.domain);
    expect(truth).toMatchObject({ https: true, servesHttps: true });
    await resetAndDelete(lab, s1, client, d.id, d.domain, d.before);
  });
});
