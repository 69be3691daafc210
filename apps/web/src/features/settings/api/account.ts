import type {
  TApiToken,
  TCreatedToken,
  TCreateTokenInput,
  TEmailChangeInput,
  TPasswordChanged,
  TPasswordChangeInput,
  TProfileInput,
  TReauthInput,
  TRecoveryCodes,
  TSessionInfo,
  TTwoFactorConfirmed,
  TTwoFactorConfirmInput,
  TTwoFactorSetup,
  TTwoFactorStatus,
} from '@portico/shared/auth/account';
import type { TPublicUser } from '@portico/shared/auth/schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { sessionQueryKey } from '@/lib/query-keys';

// The settings page's calls. Query keys are the URLs, as the generic query function
// joins them.
const settingsKeys = {
  twoFactor: ['/api/account/two-factor'] as const,
  tokens: ['/api/account/tokens'] as const,
  sessions: ['/api/account/sessions'] as const,
};

const read = <T>(queryKey: readonly string[]) =>
  queryOptions({ queryKey, queryFn: api.getQueryFn<T>({ on401: 'throw' }) });

export const useTwoFactorStatus = () => useQuery(read<TTwoFactorStatus>(settingsKeys.twoFactor));
export const useTokens = () => useQuery(read<TApiToken[]>(settingsKeys.tokens));
export const useSessions = () => useQuery(read<TSessionInfo[]>(settingsKeys.sessions));

/** A write whose answer is the account: the header and every screen see the change at once. */
function useUserWrite<T>(url: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: T) => api.requestJson<TPublicUser>('PUT', url, input),
    onSuccess: (user) => queryClient.setQueryData(sessionQueryKey, user),
  });
}

export const useSaveProfile = () => useUserWrite<TProfileInput>('/api/account/profile');
export const useChangeEmail = () => useUserWrite<TEmailChangeInput>('/api/account/email');

/** A new password or second factor ends the other sessions and may revoke the tokens. */
function useEndedElsewhere() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: settingsKeys.sessions }),
      queryClient.invalidateQueries({ queryKey: settingsKeys.tokens }),
    ]);
}

export function useChangePassword() {
  const endedElsewhere = useEndedElsewhere();
  return useMutation({
    mutationFn: (input: TPasswordChangeInput) =>
      api.requestJson<TPasswordChanged>('PUT', '/api/account/password', input),
    onSuccess: endedElsewhere,
  });
}

/**
 * Two-factor changes the status and the account (twoFactorEnabled, twoFactorSetupRequired).
 * The confirmation leaves the account to `useRefreshUser` once the recovery codes are kept: a
 * refreshed account would let the app replace the required-setup screen that shows them. It
 * ended the other sessions and may have revoked the tokens: those lists are read again.
 */
function useTwoFactorWrite<TInput, TResult>(url: string, confirmation = false) {
  const queryClient = useQueryClient();
  const endedElsewhere = useEndedElsewhere();
  return useMutation({
    mutationFn: (input: TInput) => api.requestJson<TResult>('POST', url, input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: settingsKeys.twoFactor });
      if (confirmation) await endedElsewhere();
      else await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}

export function useRefreshUser() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: sessionQueryKey });
}

export const useBeginTwoFactor = () =>
  useTwoFactorWrite<void, TTwoFactorSetup>('/api/account/two-factor/setup');
export const useConfirmTwoFactor = () =>
  useTwoFactorWrite<TTwoFactorConfirmInput, TTwoFactorConfirmed>(
    '/api/account/two-factor/confirm',
    true,
  );
export const useDisableTwoFactor = () =>
  useTwoFactorWrite<TReauthInput, { success: true }>('/api/account/two-factor/disable');
export const useNewRecoveryCodes = () =>
  useTwoFactorWrite<TReauthInput, TRecoveryCodes>('/api/account/two-factor/recovery-codes');

function useListWrite<TInput, TResult>(
  key: readonly string[],
  send: (input: TInput) => Promise<TResult>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export const useCreateToken = () =>
  useListWrite(settingsKeys.tokens, (input: TCreateTokenInput) =>
    api.requestJson<TCreatedToken>('POST', '/api/account/tokens', input),
  );
export const useRevokeToken = () =>
  useListWrite(settingsKeys.tokens, (id: string) =>
    api.requestJson<{ success: true }>('DELETE', `/api/account/tokens/${id}`),
  );
export const useEndSession = () =>
  useListWrite(settingsKeys.sessions, (id: string) =>
    api.requestJson<{ success: true }>('DELETE', `/api/account/sessions/${id}`),
  );
export const useEndOtherSessions = () =>
  useListWrite(settingsKeys.sessions, () =>
    api.requestJson<{ ended: number }>('POST', '/api/account/sessions/end-others'),
  );
