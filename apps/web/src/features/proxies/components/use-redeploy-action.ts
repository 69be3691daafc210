import { useTranslation } from 'react-i18next';
import { toastOutcome } from '@/lib/toast-outcome';
import { useRedeployProxy } from '../api/redeploy-proxy';

/** Starts a redeployment with its toasts (redeploySuccess / redeployError). */
export function useRedeployAction() {
  const { t } = useTranslation();
  const mutation = useRedeployProxy();
  const run = (id: string): Promise<boolean> =>
    toastOutcome(() => mutation.mutateAsync(id), t, {
      success: t('proxies.details.redeploySuccess'),
      failure: t('proxies.details.redeployError'),
    });
  return { run, isPending: mutation.isPending };
}
