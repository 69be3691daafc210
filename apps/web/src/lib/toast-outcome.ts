import type { TFunction } from 'i18next';
import { toast } from '@/hooks/use-toast';
import { errorDescription } from './form-errors';

/**
 * Runs one action and tells its outcome: `success` as a toast, or `failure` as a destructive
 * toast carrying the server's reason (never a bare "error"). Resolves to whether it worked.
 */
export async function toastOutcome(
  work: () => Promise<unknown>,
  t: TFunction,
  texts: { success: string; failure: string },
): Promise<boolean> {
  try {
    await work();
    toast({ title: texts.success });
    return true;
  } catch (error) {
    toast({
      variant: 'destructive',
      title: texts.failure,
      description: errorDescription(error, t, t('errors.general')),
    });
    return false;
  }
}
