import type { TFunction } from 'i18next';
import { toast } from '@/hooks/use-toast';
import { errorDescription } from './form-errors';

/**
 * The toast for a failed call: `title` says what failed, the description why (the server's
 * reason when it sent one, else the network or generic text). A reason that only repeats the
 * title is left out, so a toast never says the same thing twice.
 */
export function toastFailure(error: unknown, t: TFunction, title: string): void {
  const reason = errorDescription(error, t);
  toast({ variant: 'destructive', title, description: reason === title ? undefined : reason });
}

/**
 * Runs one action and tells its outcome: `success` as a toast, or `failure` as a destructive
 * toast carrying the server's reason (never a bare "error"). Resolves to whether it worked.
 */
export async function toastOutcome(
  work: () => Promise<unknown>,
  t: TFunction,
  texts: { success: string; successDescription?: string; failure: string },
): Promise<boolean> {
  try {
    await work();
    toast({ title: texts.success, description: texts.successDescription });
    return true;
  } catch (error) {
    toastFailure(error, t, texts.failure);
    return false;
  }
}
