// Shared by the drills that check Portico's word against the server: what a lab
// server holds for a domain, read there independently of the engine's own look; the API's
// record compared with it; a reset that leaves the server serving what it served, as the record
// says; and a delete with removal that must leave no trace.
import { X509Certificate } from 'node:crypto';
import { servingOf } from '@portico/shared/proxy/server-record';
import { expect } from 'vitest';
import type { TLab, TLabServer } from '../../../../testbed/src/lab';
import type { HttpClient } from '../support/lab-app-helpers';
import { httpGet, httpsGet } from '../support/lab-helpers';
import { nginxTest, unrelatedSite } from './drill-helpers';

const TRUTH = `d=$1
for f in /etc/nginx/sites-available/proxy-$d /etc/nginx/sites-enabled/proxy-$d /etc/nginx/conf.d/proxy-$d.conf; do
  if [ -e "$f" ] || [ -L "$f" ]; then echo "FILE=$f"; fi
done
if grep -qs '^ *ssl_certificate ' "/etc/nginx/sites-available/proxy-$d"; then echo HTTPS=yes; fi
for p in "/etc/letsencrypt/live/$d" "/etc/letsencrypt/archive/$d" "/etc/letsencrypt/renewal/$d.conf"; do
  if [ -e "$p" ]; then echo "CERT=$p"; fi
done
if [ -r "/etc/letsencrypt/live/$d/cert.pem" ]; then echo PEM; cat "/etc/letsencrypt/live/$d/cert.pem"; fi`;

/** What `server` holds and serves for `domain` (short lab domains: the names are the domain). */
export async function siteOnServer(lab: TLab, server: TLabServer, domain: string) {
  const r = await lab.exec(server.name, ['bash', '-c', TRUTH, 'truth', domain]);
  const lines = r.stdout.split('\n');
  const pem = r.stdout.includes('\nPEM\n') ? r.stdout.split('\nPEM\n')[1] : undefined;
  const servesHttps = await httpsGet(lab.status, server.address, domain, '/').then(
    (page) => page.status === 200 && JSON.parse(page.body).host === domain,
    () => false,
  );
  const proxiedOverHttp = await httpGet(server.address, domain, '/').then(
    (page) => page.body.includes('"upstream"'),
    () => false,
  );
  return {
    files: lines
      .filter((l) => l.startsWith('FILE='))
      .map((l) => l.slice(5))
      .sort(),
    https: lines.includes('HTTPS=yes'),
    /** The certificate lineage's paths that exist (live, archive, renewal). */
    certificate: lines.filter((l) => l.startsWith('CERT=')).map((l) => l.slice(5)),
    expiresAt: pem ? new Date(new X509Certificate(pem).validTo).toISOString() : null,
    /** The domain answers over HTTPS, verified against the lab CA, with the upstream. */
    servesHttps,
    /** Port 80 answers for the domain with the upstream (an HTTP-only site proxies too). */
    proxiedOverHttp,
    nginxTest: await nginxTest(lab, server),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read fields of whatever the API answered
export async function shownOf(client: HttpClient, id: string): Promise<any> {
  return (await client.request('GET', `/api/proxy-configurations/${id}`)).json;
}

/** The API's account of the proxy equals what the server holds, field by field. */
export async function expectShownAsOnServer(
  lab: TLab,
  server: TLabServer,
  client: HttpClient,
  id: string,
  domain: string,
) {
  const truth = await siteOnServer(lab, server, domain);
  const shown = await shownOf(client, id);
  const file = `/etc/nginx/sites-available/proxy-${domain}`;
  const link = `/etc/nginx/sites-enabled/proxy-${domain}`;
  expect(truth.nginxTest).toContain('test is successful');
  expect(shown.serverSites).toHaveLength(1);
  const site = shown.serverSites[0];
  expect(site).toMatchObject({
    serverIp: server.address,
    domain,
    hostKeyFingerprint: server.hostKeyFingerprint,
    unconfirmed: false,
  });
  expect([...site.files].sort()).toEqual(truth.files);
  expect(site.enabled).toBe(truth.files.includes(link));
  expect(site.https).toBe(truth.https);
  expect(site.certificate !== null).toBe(truth.certificate.length > 0);
  expect(site.certificate?.expiresAt ?? null).toBe(truth.expiresAt);
  // The summary the lists show says the same, and it is true of what the domain serves.
  expect(shown.sslConfigured).toBe(truth.servesHttps);
  expect(shown.certificateExpiresAt).toBe(truth.expiresAt);
  expect(shown.nginxConfigPath).toBe(truth.files.includes(file) ? file : null);
  return { truth, shown };
}

/**
 * Reset state, then delete with removal as the dialog sends it (certificate too): nothing of the
 * site stays on the server, nginx -t passes, the unrelated site serves what it served.
 */
export async function resetAndDelete(
  lab: TLab,
  server: TLabServer,
  client: HttpClient,
  id: string,
  domain: string,
  unrelated: Awaited<ReturnType<typeof unrelatedSite>>,
) {
  const before = await siteOnServer(lab, server, domain);
  const recorded = (await shownOf(client, id)).serverSites;
  const reset = await client.request('PATCH', `/api/proxy-configurations/${id}/reset`);
  expect(reset.status).toBe(200);
  expect(reset.json.status).toBe('pending');
  // A reset touches nothing remote: nginx serves what it served, and the record (what every
  // screen's summary reads, "pending redeploy — still serving") says exactly that.
  expect(await siteOnServer(lab, server, domain)).toEqual(before);
  expect(reset.json.serverSites).toEqual(recorded);
  expect(servingOf(reset.json.serverSites, reset.json.sslConfigured)).toBe(
    before.servesHttps ? 'https' : before.proxiedOverHttp ? 'http' : null,
  );
  const deleted = await client.request(
    'DELETE',
    `/api/proxy-configurations/${id}?removeFromServer=true&removeCertificate=true`,
  );
  expect(deleted.status, JSON.stringify(deleted.json)).toBe(200);
  expect(deleted.json).toEqual({ success: true, removedFromServer: true });
  const after = await siteOnServer(lab, server, domain);
  expect(after).toMatchObject({
    files: [],
    https: false,
    certificate: [],
    servesHttps: false,
    proxiedOverHttp: false,
  });
  expect(after.nginxTest).toContain('test is successful');
  expect(await unrelatedSite(lab, server)).toEqual(unrelated);
}
