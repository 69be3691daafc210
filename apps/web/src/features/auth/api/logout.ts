import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';
import { userQueryKey } from '@/lib/current-user';
import { toastFailure } from '@/lib/toast-outcome';

export function logout() {
  return api.requestJson<{ success: boolean }>('POST', '/api/logout');
}

/** "Logging out..." toast; on success clear the user, refetch, go to /. */
export function useLogout() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: logout,
    onMutate: () => {
      toast({ title: t('header.loggingOut') });
    },
    onSuccess: async () => {
      api.resetCsrfToken();
      queryClient.setQueryData(userQueryKey, null);
      // Drop every other cached answer: it belonged to the user who just left.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== userQueryKey[0] });
      navigate('/');
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
    onError: (error) => toastFailure(error, t, t('header.logoutFailed')),
  });
}
