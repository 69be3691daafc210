// Shapes shared by the lab's CLI, its programmatic API and the tests that use a lab.

/** Ways a test server can differ from a fresh VPS with nginx running. */
export const SERVER_VARIANTS = [
  'nginx-stopped',
  'port80-busy',
  'existing-site',
  'no-root-login',
  'cron-running',
  'no-scheduler',
  'no-password-login',
  // Sites written by hand (a proxy, a static site, includes, two names, a TLS site made by
  // certbot --nginx, one name served twice) for the site scan; and a configuration nginx -t refuses.
  'hand-sites',
  'nginx-broken',
] as const;
export type TServerVariant = (typeof SERVER_VARIANTS)[number];

export type TLabUser = {
  name: 'root' | 'deploy';
  password: string;
  /** true when the user needs `sudo -S` (fed this password) to act as root. */
  sudo: boolean;
};

export type TLabServer = {
  name: string;
  address: string;
  hostname: string;
  sshPort: 22;
  users: TLabUser[];
  /** As `ssh-keygen -lf` prints it: `SHA256:` followed by unpadded base64. */
  hostKeyFingerprint: string;
  domains: string[];
  variants: TServerVariant[];
};

export type TLabStatus = {
  id: number;
  servers: TLabServer[];
  /** host:port of the lab's DNS server. */
  dnsServer: string;
  acmeDirectoryUrl: string;
  /** PEM of the ACME CA's issuing root: trust it to verify sites deployed in the lab. */
  caRootPath: string;
  /** PEM of the CA that signed the ACME server's own HTTPS listener. */
  caListenerCertPath: string;
  upstream: { address: string; port: number; name: string };
  /** Every lab domain and the address its A record answers. */
  domains: Record<string, string>;
  /** A lab started with `dns01`: bind9 and the TSIG key that may write `_acme-challenge`. */
  dns01?: TLabDns01;
};

/**
 * RFC 2136 access to the lab's authoritative DNS (testbed/src/bind.ts): `sN.<zone>` and every
 * name under it answer server sN, and the key may set `_acme-challenge.sN.<zone>` TXT records.
 */
export type TLabDns01 = {
  zone: string;
  /** IPv4 address and port of bind9 (certbot's rfc2136 plugin takes an address, not a name). */
  server: string;
  port: number;
  keyName: string;
  algorithm: string;
  /** The TSIG key, base64. */
  secret: string;
};

export type TLabOptions = {
  servers: number;
  /** Variants per server name (`s1`, `s2`, …); the key `*` applies to every server. */
  variants?: Record<string, TServerVariant[]>;
  /** Lab number (0–250). The CLI uses 0; programmatic labs take the first free one from 1. */
  id?: number;
  /**
   * Started by hand (the CLI): no process owns it, so no sweep removes it; it lives until `down`
   * (or `up` again on its number). Otherwise the calling process owns it and the next startLab
   * after that process died removes it.
   */
  byHand?: boolean;
  /** How long Pebble's certificates are valid, in seconds (Pebble's default: 5 years). */
  certificateValiditySeconds?: number;
  /** Pebble requires External Account Binding, with these key ids and base64url HMAC keys. */
  eabKeys?: Record<string, string>;
  /** Also start bind9 for DNS-01 (testbed/src/bind.ts); costs about a second at start. */
  dns01?: boolean;
};

export type TExecResult = { code: number; stdout: string; stderr: string };
