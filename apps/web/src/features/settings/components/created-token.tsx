import type { TCreatedToken } from '@portico/shared/auth/account';
import { CopyIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { useSettingsTexts } from '@/lib/use-group-texts';

/** The new token, this once: copy it now, Portico keeps only its hash. */
export function CreatedToken({ created, onDone }: { created: TCreatedToken; onDone: () => void }) {
  const { t } = useSettingsTexts();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      toast({ title: t('settings.tokens.copied') });
    } catch {
      toast({ variant: 'destructive', title: t('settings.tokens.copyFailed') });
    }
  };
  return (
    <Alert variant="success" data-testid="token-created">
      <AlertTitle>{t('settings.tokens.createdTitle', { name: created.name })}</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>{t('settings.tokens.createdDescription')}</p>
        <code
          className="rounded-md bg-background px-3 py-2 font-mono text-xs break-all text-foreground"
          data-testid="token-value"
        >
          {created.token}
        </code>
        <div className="flex flex-wrap gap-2">
          <Button type="button" size="sm" variant="outline" onClick={copy}>
            <CopyIcon aria-hidden="true" />
            {t('settings.tokens.copy')}
          </Button>
          <Button type="button" size="sm" onClick={onDone} data-testid="token-created-done">
            {t('settings.tokens.createdDone')}
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}
