import type { TPublicUser, TRegisterInput } from '@portico/shared/auth/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { userQueryKey } from '@/lib/current-user';

export function register(input: TRegisterInput) {
  return api.requestJson<{ user: TPublicUser }>('POST', '/api/register', input);
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    // The answer's user is the new session's (as at sign-in, api/login.ts): set, not asked again.
    onSuccess: (result) => {
      api.resetCsrfToken();
      queryClient.setQueryData(userQueryKey, result.user);
    },
  });
}
