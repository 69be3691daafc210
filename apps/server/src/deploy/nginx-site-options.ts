import { type TProxyOptions, type TUpstream, ZProxyOptions } from '@portico/shared/proxy/options';
import { upstreamParts } from '@portico/shared/proxy/options-rules';
import { siteLabel } from './site-names';
import { DeployValidationError, formatTarget, type TTarget } from './validate';

/**
 * The parts of a site file a proxy's options add (docs/PRODUCT.md#proxy-options). Values come
 * only from options that pass the shared allowlist again here (`checkOptions`), whatever the
 * API let through: header values go inside double quotes and hold no `"`, `\` or `$`; paths,
 * hosts, CIDRs and user names are matched whole; nothing is escaped, anything else is refused.
 */

export interface TCheckedOptions {
  options: TProxyOptions;
  /** Where the engine writes the basic-auth users; set when there are any. */
  htpasswdPath?: string;
}

export function checkOptions(
  options: unknown,
  allowAdvanced: boolean,
  htpasswdPath: string | undefined,
): TCheckedOptions {
  const parsed = ZProxyOptions.safeParse(options ?? {});
  if (!parsed.success) throw new DeployValidationError('options', 'options');
  const o = parsed.data;
  if (o.advanced !== undefined && !allowAdvanced) {
    throw new DeployValidationError('options', 'advancedDisabled');
  }
  if (o.basicAuth?.length && !htpasswdPath) throw new DeployValidationError('options', 'options');
  return { options: o, htpasswdPath };
}

/** A name no host name can have (`_`), so no implicit upstream of a proxy_pass collides with it. */
function upstreamName(domain: string, index: number): string {
  return `portico_up_${siteLabel(domain)}${index === 0 ? '' : `_${index}`}`;
}

/** The upstream groups of the site: 0 is `location /`, 1… the custom locations in order. */
function groupsOf(o: TProxyOptions): TUpstream[][] {
  return [o.upstreams ?? [], ...(o.locations ?? []).map((l) => l.upstreams)];
}

export function upstreamBlocks(domain: string, o: TProxyOptions): string[] {
  const lines: string[] = [];
  const health = o.health
    ? ` max_fails=${o.health.maxFails} fail_timeout=${o.health.failTimeout}s`
    : '';
  groupsOf(o).forEach((group, index) => {
    if (group.length === 0) return;
    lines.push(`upstream ${upstreamName(domain, index)} {`);
    if (o.loadBalancing === 'least_conn') lines.push('    least_conn;');
    if (o.loadBalancing === 'ip_hash') lines.push('    ip_hash;');
    for (const u of group) {
      const p = upstreamParts(u.url)!;
      const weight = u.weight === undefined ? '' : ` weight=${u.weight}`;
      lines.push(`    server ${p.host}:${p.port}${weight}${health}${u.backup ? ' backup' : ''};`);
    }
    lines.push('}', '');
  });
  return lines;
}

/** Where a location sends its requests: the one target, or its upstream group. */
export interface TPass {
  url: string;
  scheme: 'http' | 'https';
  /** The SNI name for an https group (its upstream name would be sent otherwise). */
  sslName?: string;
}

export function passOf(domain: string, o: TProxyOptions, index: number, target: TTarget): TPass {
  const group = groupsOf(o)[index] ?? [];
  if (group.length === 0) return { url: formatTarget(target), scheme: target.scheme };
  const first = upstreamParts(group[0]!.url)!;
  return {
    url: `${first.scheme}://${upstreamName(domain, index)}${first.path}`,
    scheme: first.scheme,
    sslName: first.host,
  };
}

const GZIP_TYPES =
  'text/plain text/css text/xml application/json application/javascript application/xml image/svg+xml';

/**
 * The allow and deny lists. Denied first: nginx takes the first rule that matches, so a denied
 * address inside an allowed range stays denied; with an allow list, everyone else is denied.
 * A `return` (the final site's port 80, a redirect host) answers before any of them: nginx's
 * rewrite phase runs before its access phase.
 */
function addressRules(o: TProxyOptions): string[] {
  const lines = [
    ...(o.deny ?? []).map((cidr) => `    deny ${cidr};`),
    ...(o.allow ?? []).map((cidr) => `    allow ${cidr};`),
  ];
  if (o.allow?.length) lines.push('    deny all;');
  return lines;
}

/** Lines at the server block's level: headers, limits, access. The ACME location undoes access. */
export function serverLevel(o: TProxyOptions, tls: boolean, htpasswdPath?: string): string[] {
  const lines: string[] = [];
  if (tls && o.hsts) {
    const h = o.hsts;
    const value = [
      `max-age=${h.maxAge}`,
      h.includeSubDomains && 'includeSubDomains',
      h.preload && 'preload',
    ]
      .filter(Boolean)
      .join('; ');
    lines.push(`    add_header Strict-Transport-Security "${value}" always;`);
  }
  for (const h of o.headers ?? []) lines.push(`    add_header ${h.name} "${h.value}" always;`);
  if (o.compression === true) {
    lines.push(
      '    gzip on;',
      '    gzip_vary on;',
      '    gzip_proxied any;',
      `    gzip_types ${GZIP_TYPES};`,
    );
  }
  if (o.compression === false) lines.push('    gzip off;');
  lines.push(...addressRules(o));
  if (o.basicAuth?.length && htpasswdPath) {
    lines.push('    auth_basic "Restricted";', `    auth_basic_user_file ${htpasswdPath};`);
  }
  if (o.advanced) {
    lines.push('    # Advanced lines (PORTICO_ALLOW_CUSTOM_NGINX):');
    for (const line of o.advanced.split('\n')) if (line.trim()) lines.push(`    ${line.trim()}`);
  }
  return lines.length > 0 ? [...lines, ''] : lines;
}

/** Inside the ACME location: no access rule of the site applies to the challenge. */
export function acmeExemption(o: TProxyOptions): string[] {
  const lines: string[] = [];
  if (o.allow?.length || o.deny?.length) lines.push('        allow all;');
  if (o.basicAuth?.length) lines.push('        auth_basic off;');
  return lines;
}

/** The proxying lines of one location. */
export function proxyLines(o: TProxyOptions, pass: TPass, upgradeVariable: string): string[] {
  const t = o.timeouts ?? {};
  const body = o.clientMaxBodyMb === undefined ? '64m' : `${o.clientMaxBodyMb}m`;
  const lines = [
    `        proxy_pass ${pass.url};`,
    '        proxy_http_version 1.1;',
    '        proxy_set_header Host $host;',
    '        proxy_set_header X-Real-IP $remote_addr;',
    '        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '        proxy_set_header X-Forwarded-Proto $scheme;',
    '        proxy_set_header X-Forwarded-Host $host;',
    ...(o.websocket === false
      ? ['        proxy_set_header Connection "";']
      : [
          '        proxy_set_header Upgrade $http_upgrade;',
          `        proxy_set_header Connection ${upgradeVariable};`,
        ]),
    `        proxy_connect_timeout ${t.connect ?? 15}s;`,
    // Long enough for a quiet WebSocket or a slow report; the upstream decides beyond that.
    `        proxy_send_timeout ${t.send ?? 300}s;`,
    `        proxy_read_timeout ${t.read ?? 300}s;`,
    `        client_max_body_size ${body};`,
  ];
  if (pass.scheme === 'https') {
    // Send SNI to an HTTPS upstream; without it many upstreams answer with the wrong site.
    lines.push('        proxy_ssl_server_name on;');
    if (pass.sslName) lines.push(`        proxy_ssl_name ${pass.sslName};`);
  }
  return lines;
}

/** `location /` and the custom locations, or the redirect that replaces them. */
export function routeLocations(
  domain: string,
  o: TProxyOptions,
  target: TTarget,
  upgradeVariable: string,
): string[] {
  if (o.redirect) {
    const to = upstreamParts(o.redirect.to)!;
    const origin = `${to.scheme}://${to.host}${to.port === (to.scheme === 'https' ? 443 : 80) ? '' : `:${to.port}`}`;
    const url = o.redirect.keepPath
      ? `${origin}${to.path.replace(/\/$/, '')}$request_uri`
      : `${origin}${to.path || '/'}`;
    return ['    location / {', `        return ${o.redirect.code} ${url};`, '    }'];
  }
  const lines: string[] = [];
  (o.locations ?? []).forEach((l, i) => {
    lines.push(
      `    location ${l.path} {`,
      ...proxyLines(o, passOf(domain, o, i + 1, target), upgradeVariable),
      '    }',
      '',
    );
  });
  lines.push(
    '    location / {',
    ...proxyLines(o, passOf(domain, o, 0, target), upgradeVariable),
    '    }',
  );
  return lines;
}
