// The `hand-sites` variant's TLS site, made the way a user would have made it: server-init.sh
// writes a plain port-80 site, then, once the lab's Pebble answers, `certbot --nginx` obtains a
// live certificate for it and edits the file (the 443 block, the redirect block).
import { execInServer } from './exec-in-server';
import { assertDomain, handTlsDomain } from './names';
import type { TLabServer } from './types';

export async function certifyHandSites(
  labId: number,
  servers: TLabServer[],
  acmeDirectoryUrl: string,
): Promise<void> {
  await Promise.all(
    servers
      .filter((s) => s.variants.includes('hand-sites'))
      .map(async (server) => {
        const domain = handTlsDomain(server.name);
        assertDomain(domain);
        const argv = [
          'certbot',
          '--nginx',
          '-d',
          domain,
          '--redirect',
          '--server',
          acmeDirectoryUrl,
          '--agree-tos',
          '--register-unsafely-without-email',
          '--non-interactive',
        ];
        const result = await execInServer(server.name, argv, { lab: labId });
        if (result.code !== 0) {
          throw new Error(
            `certbot --nginx for ${domain} on ${server.name} failed:\n${result.stderr}`,
          );
        }
      }),
  );
}
