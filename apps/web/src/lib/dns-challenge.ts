import {
  type TDnsChallengeInput,
  type TDnsChallengeView,
  type TDnsProviderName,
  type TSIG_ALGORITHMS,
  ZDnsCredentials,
} from '@portico/shared/certificates/dns-challenge';
import { ZPort } from '@portico/shared/proxy/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { certificateUrl } from './certificate-status';
import { proxyKeys } from './query-keys';

// DNS-01 (issue 41) as the wizard and the proxy's page both ask for it: what is typed, checked
// with the registry's own schema before it is sent, and the calls of …/certificate/dns.

/** Every field any provider asks for; a provider's own are listed in DNS_FIELDS. */
export type TDnsField = 'server' | 'port' | 'keyName' | 'algorithm' | 'secret' | 'apiToken';

export const DNS_FIELDS: Record<TDnsProviderName, readonly TDnsField[]> = {
  rfc2136: ['server', 'port', 'keyName', 'algorithm', 'secret'],
  cloudflare: ['apiToken'],
};

/** The fields that hold a secret: typed like a password, never shown back. */
export const SECRET_FIELDS: ReadonlySet<TDnsField> = new Set(['secret', 'apiToken']);

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
  includeApex: false,
};

/** A field's problem: a key of the server's catalog (validation.*), shown in the screen's language. */
export type TDnsProblems = Partial<Record<TDnsField, string>>;

function credentialsOf(draft: TDnsDraft): unknown {
  if (draft.provider === 'cloudflare') return { provider: 'cloudflare', apiToken: draft.apiToken };
  return {
    provider: 'rfc2136',
    server: draft.server.trim(),
    port: ZPort.safeParse(draft.port).data ?? draft.port,
    keyName: draft.keyName.trim(),
    algorithm: draft.algorithm,
    secret: draft.secret.trim(),
  };
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
    problems[field] ??= issue.message.startsWith('validation.')
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

export function useDnsChallenge(id: string) {
  return useQuery({
    queryKey: dnsChallengeQueryKey(id),
    queryFn: () =>
      api.requestJson<{ dnsChallenge: TDnsChallengeView | null }>(
        'GET',
        `${certificateUrl(id)}/dns`,
      ),
    select: (answer) => answer.dnsChallenge,
  });
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
