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
    onSuccess: async () => {
      api.resetCsrfToken();
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}
