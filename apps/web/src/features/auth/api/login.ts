import type { TLoginInput, TPublicUser } from '@portico/shared/auth/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { userQueryKey } from './get-user';

export function login(input: TLoginInput) {
  return api.requestJson<{ user: TPublicUser }>('POST', '/api/login', input);
}

/** Signs in; the session changed, so the CSRF token is dropped and the user refetched. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: async () => {
      api.resetCsrfToken();
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
