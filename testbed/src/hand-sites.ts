// The `hand-sites` variant's TLS site, made the way a user would have made it: server-init.sh
// writes a plain port-80 site, then, once the lab's Pebble answers, `certbot --nginx` obtains a
// live certificate for it and edits the file (the 443 block, the redirect block).
import { execInServer } from './exec-in-server';
import { assertDomain, handTlsDomain } from './names';
import type { TLabServer } from './types';

/**
 * certbot's nginx control on the lab server: nginx itself, and after a reload it returns once
 * nginx's old workers stopped taking connections. certbot would sleep a whole second after each
 * of its four reloads instead (its --nginx-sleep-seconds, whole seconds only).
 */
const NGINX_CTL = '/usr/local/sbin/lab-certbot-nginx';
const NGINX_CTL_SCRIPT = `#!/bin/sh
serving() { c=$(tr '\\0' ' ' <"/proc/$1/cmdline" 2>/dev/null) || return 1
  case "$c" in *"shutting down"*) return 1 ;; "nginx: worker process"*) return 0 ;; esac; return 1; }
case " $* " in *" -s reload "*) ;; *) exec nginx "$@" ;; esac
old=$(for p in /proc/[0-9]*; do serving "\${p#/proc/}" && echo "\${p#/proc/}"; done)
nginx "$@" || exit
i=0
while [ "$i" -lt 200 ]; do
  left=0; for p in $old; do serving "$p" && left=1; done
  [ "$left" = 0 ] && exit 0
  sleep 0.05; i=$((i + 1))
done
`;

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
        const ctl = await execInServer(
          server.name,
          ['sh', '-c', `cat > ${NGINX_CTL} && chmod 0755 ${NGINX_CTL}`],
          { lab: labId, input: NGINX_CTL_SCRIPT },
        );
        if (ctl.code !== 0) throw new Error(`${server.name}: ${NGINX_CTL}: ${ctl.stderr}`);
        const argv = [
          'certbot',
          '--nginx',
          '-d',
          domain,
          '--redirect',
          '--nginx-ctl',
          NGINX_CTL,
          '--nginx-sleep-seconds',
          '0',
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
