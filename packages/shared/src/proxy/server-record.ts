import { z } from 'zod';
import { ZText } from '../i18n/text';

/**
 * What Portico has put on one server for a proxy, as the deployment engine last wrote or saw
 * it: kept per proxy and updated as the engine writes (before each write, and after it from a
 * look at the server), whatever the run's outcome. Removal from the server follows this record,
 * never the proxy's status. A proxy has one entry per server and domain it was deployed to.
 */
export const ZServerSite = z.object({
  /** Where: the server as the configuration named it, its SSH port and user, and the domain. */
  serverIp: z.string(),
  sshPort: z.number(),
  sshUser: z.string(),
  /** The host key that server presented, so a removal reaches the same machine. */
  hostKeyFingerprint: z.string().nullable(),
  domain: z.string(),
  /** Portico's files for the domain there: the site file, and its enabled link on Debian. */
  files: z.array(z.string()),
  /** nginx loads the site (the link exists, or the file is in conf.d). */
  enabled: z.boolean(),
  /** The site file is the HTTPS one (TLS on 443, port 80 redirects). */
  https: z.boolean(),
  /** The certbot certificate (its name) and its expiry, when one is on the server. */
  certificate: z.object({ name: z.string(), expiresAt: z.string().nullable() }).nullable(),
  /**
   * The proxy's uploaded certificate there (issue 41): the chain file the site names (or one
   * left to remove), its SHA-256 fingerprint and expiry. Absent when there is none.
   */
  uploaded: z
    .object({
      path: z.string(),
      fingerprint: z.string().nullable(),
      expiresAt: z.string().nullable(),
    })
    .nullable()
    .optional(),
  /**
   * A write was announced and the run ended before Portico could look again (a lost connection,
   * a killed process): the files listed may or may not be there. A removal handles both.
   */
  unconfirmed: z.boolean(),
  /** When Portico last wrote to or looked at that server for this site. */
  checkedAt: z.string(),
});
export type TServerSite = z.infer<typeof ZServerSite>;

/** True when the entry holds anything a removal has to take off the server. */
export function siteHasTraces(site: TServerSite): boolean {
  return (
    site.files.length > 0 || site.certificate !== null || Boolean(site.uploaded) || site.unconfirmed
  );
}

/** The entry holds a certificate the HTTPS site can name: certbot's, or an uploaded one. */
export function siteHasCertificate(site: TServerSite): boolean {
  return site.certificate !== null || Boolean(site.uploaded);
}

/** What nginx serves for a proxy: its HTTPS site, its HTTP-only site, or nothing. */
export const ZServing = z.enum(['https', 'http']).nullable();
export type TServing = z.infer<typeof ZServing>;

/**
 * What the record says nginx serves for the proxy now, whatever its status says (a reset, a
 * failed run): HTTPS when an enabled entry is the HTTPS site with its certificate, HTTP when an
 * enabled entry is an HTTP-only site, else nothing. Rows from before the record have no entries;
 * for them the mirrored SSL flag is all there is.
 */
export function servingOf(sites: readonly TServerSite[], sslConfigured: boolean): TServing {
  const enabled = sites.filter((site) => site.enabled && site.files.length > 0);
  if (enabled.some((site) => site.https && siteHasCertificate(site))) return 'https';
  if (enabled.length > 0) return 'http';
  return sites.length === 0 && sslConfigured ? 'https' : null;
}

/**
 * servingOf for any proxy. An adopted site (docs/PRODUCT.md#sites-on-this-server) is served by
 * its own hand-written file, which the record never holds: the scan found it enabled, over
 * HTTPS when it names a certificate.
 */
export function servingOfProxy(proxy: {
  serverSites: readonly TServerSite[];
  sslConfigured: boolean;
  adopted: boolean;
}): TServing {
  if (proxy.adopted) return proxy.sslConfigured ? 'https' : 'http';
  return servingOf(proxy.serverSites, proxy.sslConfigured);
}

/** The last run's failure, beside the record: the run failed, whatever it left on the server. */
export const ZLastFailure = z.object({
  deploymentId: z.string().nullable(),
  code: z.string(),
  /** The engine step that failed ('custom-script', 'certificate', …). */
  step: z.string(),
  /** In the reader's language (Accept-Language). */
  message: z.string(),
  /** The same message as a text the screen renders in its current language. */
  text: ZText.nullable(),
  at: z.string(),
});
export type TLastFailure = z.infer<typeof ZLastFailure>;
