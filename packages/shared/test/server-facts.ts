// Test support only (product code never imports packages/shared/test): one healthy server's
// check, as the check script answers it and as Portico reads it, for the server's parser tests
// and the web app's component tests alike.
import type { TServerFacts } from '../src/ssh-servers/facts';

/** The check script's answer from a healthy Debian 12 server with nginx, logged in as root. */
export const HEALTHY_DEBIAN_ANSWER = [
  'os_id=debian',
  'os_version=12',
  'os_name=Debian GNU/Linux 12 (bookworm)',
  'init=systemd',
  'root=root',
  'nginx_version=1.22.1',
  'nginx_running=yes',
  'certbot_version=2.1.0',
  'renewal=certbot_timer',
  'port_80=listening nginx',
  'port_443=free',
  'disk_free_kb=5242880',
  'dns_plugins=read',
  'dns_offered=python3-certbot-dns-cloudflare',
  'dns_offered=python3-certbot-dns-rfc2136',
  'dns_offered=python3-certbot-dns-route53',
  'dns_installed=python3-certbot-dns-rfc2136',
].join('\n');

/** The facts that answer means. */
export const HEALTHY_DEBIAN_FACTS: TServerFacts = {
  os: { id: 'debian', version: '12', name: 'Debian GNU/Linux 12 (bookworm)' },
  initSystem: 'systemd',
  rootAccess: 'root',
  nginx: { version: '1.22.1', running: true },
  certbot: { version: '2.1.0' },
  renewal: 'certbot_timer',
  ports: [
    { port: 80, listening: true, program: 'nginx' },
    { port: 443, listening: false, program: null },
  ],
  diskFreeBytes: 5 * 1024 ** 3,
  dnsPlugins: {
    installed: ['python3-certbot-dns-rfc2136'],
    offered: [
      'python3-certbot-dns-cloudflare',
      'python3-certbot-dns-rfc2136',
      'python3-certbot-dns-route53',
    ],
  },
};
