import type { TFunction } from 'i18next';
import { toast } from '@/hooks/use-toast';

/** Puts the URL on the clipboard; copySuccess / copyError toasts. */
export async function copyUrl(url: string, t: TFunction): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: t('proxies.copy.success'), description: url });
  } catch {
    toast({ variant: 'destructive', title: t('proxies.copy.error') });
  }
}
