import { useTranslation } from 'react-i18next';
import { toast } from '@/hooks/use-toast';
import { errorDescription } from '@/lib/form-errors';
import { useRedeployProxy } from '../api/redeploy-proxy';

/** Starts a redeployment with the §8 toasts (redeploySuccess / redeployError). */
export function useRedeployAction() {
  const { t } = useTranslation();
  const mutation = useRedeployProxy();
  const run = async (id: string): Promise<boolean> => {
    try {
      await mutation.mutateAsync(id);
      toast({ title: t('proxies.details.redeploySuccess') });
      return true;
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('proxies.details.redeployError'),
        description: errorDescription(error, t, t('errors.general')),
      });
      return false;
    }
  };
  return { run, isPending: mutation.isPending };
}
