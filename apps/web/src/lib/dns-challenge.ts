import {
  isWildcard,
  type OVH_ENDPOINTS,
  type TDnsChallengeInput,
  type TDnsChallengeView,
  type TDnsProviderName,
  type TSIG_ALGORITHMS,
  WILDCARD_PREFIX,
  ZDnsCredentials,
} from '@portico/shared/certificates/dns-challenge';
import type {
  TDnsProviderOffer,
  TDnsProviderOffers,
} from '@portico/shared/certificates/dns-providers';
import { ZPort } from '@portico/shared/proxy/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { certificateUrl } from './certificate-status';
import { proxyKeys } from './query-keys';

// DNS-01 (issue 41) as the wizard and the proxy's page both ask for it: what is typed, checked
// with the registry's own schema before it is sent, and the calls of …/certificate/dns.

/** Every field any provider asks for; a provider's own are listed in DNS_FIELDS. */
export type TDnsField =
  | 'server'
  | 'port'
  | 'keyName'
  | 'algorithm'
  | 'secret'
  | 'apiToken'
  | 'accessKeyId'
  | 'secretAccessKey'
  | 'endpoint'
  | 'applicationKey'
  | 'applicationSecret'
  | 'consumerKey';

export const DNS_FIELDS: Record<TDnsProviderName, readonly TDnsField[]> = {
  rfc2136: ['server', 'port', 'keyName', 'algorithm', 'secret'],
  cloudflare: ['apiToken'],
  digitalocean: ['apiToken'],
  route53: ['accessKeyId', 'secretAccessKey'],
  ovh: ['endpoint', 'applicationKey', 'applicationSecret', 'consumerKey'],
  gandi: ['apiToken'],
  linode: ['apiToken'],
  dnsimple: ['apiToken'],
};

/** The fields that hold a secret: typed like a password, never shown back. */
export const SECRET_FIELDS: ReadonlySet<TDnsField> = new Set([
  'secret',
  'apiToken',
  'secretAccessKey',
  'applicationSecret',
  'consumerKey',
]);

/** The fields a long value fills: the whole row on a wide screen. */
export const WIDE_FIELDS: ReadonlySet<TDnsField> = new Set([
  'secret',
  'apiToken',
  'secretAccessKey',
]);

export type TDnsDraft = Record<TDnsField, string> & {
  provider: TDnsProviderName;
  /** With a wildcard: the certificate and the site also cover the name itself. */
  includeApex: boolean;
};

export const emptyDnsDraft: TDnsDraft = {
  provider: 'rfc2136',
  server: '',
  port: '53',
  keyName: '',
  algorithm: 'HMAC-SHA256' satisfies (typeof TSIG_ALGORITHMS)[number],
  secret: '',
  apiToken: '',
  accessKeyId: '',
  secretAccessKey: '',
  endpoint: 'ovh-eu' satisfies (typeof OVH_ENDPOINTS)[number],
  applicationKey: '',
  applicationSecret: '',
  consumerKey: '',
  includeApex: false,
};

/** What the server's last check says of a provider; unknown without a check. */
export function offerIn(
  offers: TDnsProviderOffers | null,
  provider: TDnsProviderName,
): TDnsProviderOffer {
  return offers?.find((o) => o.provider === provider)?.offer ?? 'unknown';
}

/** A field's problem: a key of the server's catalog (validation.*), shown in the screen's language. */
export type TDnsProblems = Partial<Record<TDnsField, string>>;

/** The chosen provider's fields as its schema takes them: trimmed, the port a number. */
function credentialsOf(draft: TDnsDraft): unknown {
  const values = DNS_FIELDS[draft.provider].map((field) => [
    field,
    field === 'port' ? (ZPort.safeParse(draft.port).data ?? draft.port) : draft[field].trim(),
  ]);
  return { provider: draft.provider, ...Object.fromEntries(values) };
}

/**
 * The body of PUT …/certificate/dns, or each field's problem by the registry's own rules (the
 * ones the server applies): nothing is sent that the server would refuse on a field.
 */
export function dnsChallengeOf(
  draft: TDnsDraft,
  wildcard: boolean,
): { input: TDnsChallengeInput } | { problems: TDnsProblems } {
  const problems: TDnsProblems = {};
  if (draft.provider === 'rfc2136') {
    const port = ZPort.safeParse(draft.port);
    if (!port.success) problems.port = port.error.issues[0]?.message;
  }
  const parsed = ZDnsCredentials.safeParse(credentialsOf(draft));
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0] as TDnsField;
    problems[field] ??= /^(validation|certificates)\./.test(issue.message)
      ? issue.message
      : 'validation.required';
  }
  if (!parsed.success || Object.keys(problems).length > 0) return { problems };
  return { input: { credentials: parsed.data, includeApex: wildcard && draft.includeApex } };
}

/**
 * GET …/{id}/certificate/dns, under the proxy's own key (every write that reads the proxy again
 * reads this again). Kept here, out of query-keys.ts, which the landing page's bundle carries.
 */
export const dnsChallengeQueryKey = (id: string) =>
  [...proxyKeys.detail(id), 'certificate', 'dns'] as const;

/** The stored challenge (never its credentials) and which providers the proxy's server offers. */
export function useDnsChallenge(id: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: dnsChallengeQueryKey(id),
    queryFn: () =>
      api.requestJson<{ dnsChallenge: TDnsChallengeView | null; providers: TDnsProviderOffers }>(
        'GET',
        `${certificateUrl(id)}/dns`,
      ),
  });
}

/**
 * The name a proxy's site answers at, and its address: its domain, or for a wildcard the bare
 * name when its certificate covers it (read from the stored challenge), else none (`wildcard`
 * says why). The name is returned as stored, never parsed: stored data may be anything.
 */
export function useSiteUrl(
  domain: string,
  configurationId: string | undefined,
): { host: string | null; url: string | null; wildcard: boolean } {
  const wildcard = isWildcard(domain);
  const query = useDnsChallenge(configurationId ?? '', wildcard && Boolean(configurationId));
  const apex = query.data?.dnsChallenge?.includeApex === true;
  const host = !wildcard ? domain : apex ? domain.slice(WILDCARD_PREFIX.length) : null;
  return { host, url: host === null ? null : `https://${host}`, wildcard };
}

/** Stores the credentials (write-only): the next deployment issues by DNS-01. */
export function useSaveDnsChallenge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: TDnsChallengeInput }) =>
      api.requestJson<TDnsChallengeView>('PUT', `${certificateUrl(id)}/dns`, input),
    onSuccess: (_view, { id }) => queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
  });
}

/** Back to HTTP-01: the next deployment issues over port 80 again. */
export function useRemoveDnsChallenge(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.requestJson<{ success: true }>('DELETE', `${certificateUrl(id)}/dns`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: proxyKeys.detail(id) }),
  });
}
