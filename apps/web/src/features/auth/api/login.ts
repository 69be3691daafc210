import type { TLoginResponse, TLoginTwoFactorInput } from '@portico/shared/auth/account';
import type { TLoginInput, TPublicUser } from '@portico/shared/auth/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { userQueryKey } from '@/lib/current-user';

export function login(input: TLoginInput) {
  return api.requestJson<TLoginResponse>('POST', '/api/login', input);
}

function loginTwoFactor(input: TLoginTwoFactorInput) {
  return api.requestJson<{ user: TPublicUser }>('POST', '/api/login/two-factor', input);
}

/**
 * Either step of signing in; the session changed (a new one either way), so the CSRF token is
 * dropped. Once signed in, the answer's user is the session's (the same shape as
 * /api/auth/user's): set as it is, not asked for again, so home starts a round trip sooner.
 */
function useSignInStep<TInput, TResult>(send: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async (result) => {
      api.resetCsrfToken();
      if (result && typeof result === 'object' && 'user' in result) {
        queryClient.setQueryData(userQueryKey, result.user);
      }
    },
  });
}

export const useLogin = () => useSignInStep(login);
export const useLoginTwoFactor = () => useSignInStep(loginTwoFactor);
