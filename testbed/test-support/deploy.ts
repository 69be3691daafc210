// A deployment as the lab's own tests do it: certificate from the lab's ACME CA by webroot, then
// an nginx TLS site forwarding to the lab's upstream, all through SSH and sudo as `deploy`.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import WebSocket from 'ws';
import { assertDomain } from '../src/names';
import type { TExecResult, TLabServer, TLabStatus } from '../src/types';
import { sshSudo, type TSshTarget } from './ssh';

export function sshTarget(server: TLabServer, userName: 'root' | 'deploy'): TSshTarget {
  const user = server.users.find((u) => u.name === userName);
  if (!user) throw new Error(`no user ${userName} on ${server.name}`);
  return {
    host: server.address,
    username: user.name,
    password: user.password,
    hostKeyFingerprint: server.hostKeyFingerprint,
  };
}

function siteConfig(domain: string, upstream: TLabStatus['upstream']): string {
  const live = `/etc/letsencrypt/live/${domain}`;
  return `server {
    listen 443 ssl;
    server_name ${domain};
    ssl_certificate ${live}/fullchain.pem;
    ssl_certificate_key ${live}/privkey.pem;
    location / {
        proxy_pass http://${upstream.address}:${upstream.port};
        proxy_http_version 1.1;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection "upgrade";
    }
}
`;
}

export function deploySite(
  lab: TLabStatus,
  server: TLabServer,
  domain: string,
): Promise<TExecResult> {
  assertDomain(domain);
  const site = `/etc/nginx/sites-available/proxy-${domain}`;
  const script = `set -e
certbot certonly --webroot -w /var/www/html -d ${domain} --server ${lab.acmeDirectoryUrl} \\
  --agree-tos --register-unsafely-without-email --non-interactive --no-random-sleep-on-renew
cat > ${site} <<'PORTICO_SITE'
${siteConfig(domain, lab.upstream)}PORTICO_SITE
ln -sf ${site} /etc/nginx/sites-enabled/proxy-${domain}
nginx -t
nginx -s reload
`;
  return sshSudo(sshTarget(server, 'deploy'), script);
}

export type TEcho = {
  upstream: string;
  host: string | null;
  xForwardedFor: string | null;
  xForwardedProto: string | null;
};

/** GET https://domain/ at the server's address, trusting only the lab's ACME root. */
export function httpsViaLab(lab: TLabStatus, server: TLabServer, domain: string): Promise<TEcho> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      {
        host: server.address,
        servername: domain,
        headers: { host: domain },
        path: '/',
        ca: readFileSync(lab.caRootPath),
        timeout: 5000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          if (response.statusCode !== 200)
            reject(new Error(`HTTP ${response.statusCode}: ${body}`));
          else resolve(JSON.parse(body) as TEcho);
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
  });
}

/** Opens wss://domain/ through the server's nginx and returns the echo of `message`. */
export function websocketEcho(
  lab: TLabStatus,
  server: TLabServer,
  domain: string,
  message: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    // ws hands these options to tls.connect, servername included.
    const options: WebSocket.ClientOptions & ConnectionOptions = {
      servername: domain,
      headers: { host: domain },
      ca: readFileSync(lab.caRootPath),
    };
    const socket = new WebSocket(`wss://${server.address}/`, options);
    let greeted = false;
    socket.on('message', (data) => {
      if (!greeted) {
        greeted = true;
        socket.send(message);
        return;
      }
      socket.close();
      resolve(data.toString());
    });
    socket.on('error', reject);
  });
}
