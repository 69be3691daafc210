import type { TProxyOptionsInput, TProxyOptionsView } from '@portico/shared/proxy/options';

/**
 * The options editor's state: lists as text, one item a line, so a long list is typed or pasted
 * at once. `optionsOf` turns it into the options the API takes (the shared schema judges them);
 * `draftOf` shows stored options again. Basic-auth passwords never come back: a user's password
 * field starts empty and stays so unless a new one is typed.
 */
export interface TOptionsDraft {
  upstreams: string;
  loadBalancing: '' | 'round_robin' | 'least_conn' | 'ip_hash';
  /** Passive health and timeouts, in whole numbers as typed ('' = nginx's or Portico's default). */
  maxFails: string;
  failTimeout: string;
  timeoutConnect: string;
  timeoutSend: string;
  timeoutRead: string;
  hsts: boolean;
  hstsMaxAge: string;
  hstsIncludeSubDomains: boolean;
  hstsPreload: boolean;
  headers: string;
  clientMaxBodyMb: string;
  websocket: boolean;
  compression: '' | 'on' | 'off';
  users: { username: string; password: string; hasPassword: boolean }[];
  allow: string;
  deny: string;
  locations: string;
  redirectTo: string;
  redirectCode: string;
  redirectKeepPath: boolean;
  advanced: string;
}

/** The draft field an issue's path (`options.deny.0`, `options.basicAuth.1.password`) belongs to. */
export type TDraftField = keyof TOptionsDraft | `users.${number}`;

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** `url [weight=N] [backup]` a line. */
function upstreamsOf(text: string) {
  return lines(text).map((line) => {
    const [url = '', ...flags] = line.split(/\s+/);
    const weight = flags.find((f) => f.startsWith('weight='))?.slice(7);
    return {
      url,
      ...(weight === undefined ? {} : { weight: Number(weight) }),
      ...(flags.includes('backup') ? { backup: true } : {}),
    };
  });
}

function upstreamsText(list: { url: string; weight?: number; backup?: boolean }[] = []): string {
  return list
    .map((u) =>
      [u.url, u.weight && `weight=${u.weight}`, u.backup && 'backup'].filter(Boolean).join(' '),
    )
    .join('\n');
}

const numberOr = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));
const textOf = (n: number | undefined) => (n === undefined ? '' : String(n));

export function optionsOf(d: TOptionsDraft): TProxyOptionsInput {
  const o: Record<string, unknown> = {};
  const upstreams = upstreamsOf(d.upstreams);
  if (upstreams.length > 0) o.upstreams = upstreams;
  if (d.loadBalancing) o.loadBalancing = d.loadBalancing;
  if (d.maxFails.trim() || d.failTimeout.trim()) {
    // One given alone keeps nginx's default for the other (max_fails=1 fail_timeout=10s).
    o.health = {
      maxFails: numberOr(d.maxFails) ?? 1,
      failTimeout: numberOr(d.failTimeout) ?? 10,
    };
  }
  const timeouts = Object.fromEntries(
    (
      [
        ['connect', d.timeoutConnect],
        ['send', d.timeoutSend],
        ['read', d.timeoutRead],
      ] as const
    ).flatMap(([key, text]) => (numberOr(text) === undefined ? [] : [[key, numberOr(text)]])),
  );
  if (Object.keys(timeouts).length > 0) o.timeouts = timeouts;
  if (d.hsts) {
    o.hsts = {
      maxAge: numberOr(d.hstsMaxAge) ?? 31536000,
      includeSubDomains: d.hstsIncludeSubDomains,
      preload: d.hstsPreload,
    };
  }
  const headers = lines(d.headers).map((line) => {
    const colon = line.indexOf(':');
    return colon === -1
      ? { name: line, value: '' }
      : { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
  });
  if (headers.length > 0) o.headers = headers;
  const body = numberOr(d.clientMaxBodyMb);
  if (body !== undefined) o.clientMaxBodyMb = body;
  if (!d.websocket) o.websocket = false;
  if (d.compression) o.compression = d.compression === 'on';
  const users = d.users.filter((u) => u.username.trim() !== '' || u.password !== '');
  if (users.length > 0) {
    o.basicAuth = users.map((u) => ({
      username: u.username.trim(),
      ...(u.password ? { password: u.password } : {}),
    }));
  }
  if (lines(d.allow).length > 0) o.allow = lines(d.allow);
  if (lines(d.deny).length > 0) o.deny = lines(d.deny);
  const locations = lines(d.locations).map((line) => {
    const [path = '', ...rest] = line.split(/\s+/);
    return { path, upstreams: upstreamsOf(rest.join('\n')) };
  });
  if (locations.length > 0) o.locations = locations;
  if (d.redirectTo.trim()) {
    o.redirect = {
      to: d.redirectTo.trim(),
      code: Number(d.redirectCode || 301),
      keepPath: d.redirectKeepPath,
    };
  }
  if (d.advanced.trim()) o.advanced = d.advanced;
  return o as TProxyOptionsInput;
}

export function draftOf(v: TProxyOptionsView = {}): TOptionsDraft {
  return {
    upstreams: upstreamsText(v.upstreams),
    loadBalancing: v.loadBalancing ?? '',
    maxFails: textOf(v.health?.maxFails),
    failTimeout: textOf(v.health?.failTimeout),
    timeoutConnect: textOf(v.timeouts?.connect),
    timeoutSend: textOf(v.timeouts?.send),
    timeoutRead: textOf(v.timeouts?.read),
    hsts: v.hsts !== undefined,
    hstsMaxAge: String(v.hsts?.maxAge ?? 31536000),
    hstsIncludeSubDomains: v.hsts?.includeSubDomains ?? false,
    hstsPreload: v.hsts?.preload ?? false,
    headers: (v.headers ?? []).map((h) => `${h.name}: ${h.value}`).join('\n'),
    clientMaxBodyMb: v.clientMaxBodyMb === undefined ? '' : String(v.clientMaxBodyMb),
    websocket: v.websocket ?? true,
    compression: v.compression === undefined ? '' : v.compression ? 'on' : 'off',
    users: (v.basicAuth ?? []).map((u) => ({
      username: u.username,
      password: '',
      hasPassword: u.hasPassword,
    })),
    allow: (v.allow ?? []).join('\n'),
    deny: (v.deny ?? []).join('\n'),
    locations: (v.locations ?? [])
      .map((l) => `${l.path} ${upstreamsText(l.upstreams).replaceAll('\n', ' ')}`)
      .join('\n'),
    redirectTo: v.redirect?.to ?? '',
    redirectCode: String(v.redirect?.code ?? 301),
    redirectKeepPath: v.redirect?.keepPath ?? true,
    advanced: v.advanced ?? '',
  };
}

const FIELD_OF_OPTION: Record<string, keyof TOptionsDraft> = {
  upstreams: 'upstreams',
  loadBalancing: 'loadBalancing',
  health: 'maxFails',
  hsts: 'hstsMaxAge',
  headers: 'headers',
  clientMaxBodyMb: 'clientMaxBodyMb',
  timeouts: 'timeoutConnect',
  allow: 'allow',
  deny: 'deny',
  locations: 'locations',
  redirect: 'redirectTo',
  advanced: 'advanced',
};

/** Where an issue of the options shows: its list's field, or the row of its basic-auth user. */
export function draftFieldOf(path: readonly PropertyKey[]): TDraftField | undefined {
  const [first, second] = path.map(String);
  if (first === 'basicAuth') return second === undefined ? 'users' : `users.${Number(second)}`;
  if (first === 'redirect' && second === 'code') return 'redirectCode';
  if (first === 'health' && second === 'failTimeout') return 'failTimeout';
  if (first === 'timeouts' && (second === 'send' || second === 'read')) {
    return second === 'send' ? 'timeoutSend' : 'timeoutRead';
  }
  return first === undefined ? undefined : FIELD_OF_OPTION[first];
}
