import { Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { errorDescription } from '@/lib/form-errors';
import { offersPorticoOnly } from '../api/delete-proxy';

type TProps = {
  domain: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Deletes; throws the API error (502 server_unreachable offers the Portico-only delete). */
  onDelete: (removeFromServer: boolean) => Promise<unknown>;
  onDeleted: () => void;
};

/**
 * Delete Configuration (decisions.md): asks whether to also remove the site from the server
 * (default yes). When the server cannot be reached the dialog stays open and offers
 * "Delete from Portico only".
 */
export function DeleteProxyDialog({ domain, open, onOpenChange, onDelete, onDeleted }: TProps) {
  const { t } = useTranslation();
  const [removeFromServer, setRemoveFromServer] = React.useState(true);
  const [pending, setPending] = React.useState(false);
  const [unreachable, setUnreachable] = React.useState<string | null>(null);

  React.useEffect(() => {
    if (!open) return;
    setRemoveFromServer(true);
    setUnreachable(null);
  }, [open]);

  const run = async (remove: boolean) => {
    setPending(true);
    try {
      await onDelete(remove);
      toast({ title: t('proxies.details.deleteSuccess'), description: domain });
      onOpenChange(false);
      onDeleted();
    } catch (error) {
      if (remove && offersPorticoOnly(error)) {
        setUnreachable(errorDescription(error, t, t('proxies.delete.unreachableDefault')));
      } else {
        toast({
          variant: 'destructive',
          title: t('proxies.details.deleteError'),
          description: errorDescription(error, t, t('errors.general')),
        });
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <AlertDialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <AlertDialogContent data-testid="delete-dialog">
        <AlertDialogHeader>
          <AlertDialogTitle>{t('proxies.delete.title')}</AlertDialogTitle>
          <AlertDialogDescription>
            {t('proxies.delete.description', { domain })}
          </AlertDialogDescription>
        </AlertDialogHeader>
        {unreachable ? (
          <Alert variant="destructive" data-testid="delete-unreachable">
            <AlertTitle>{t('proxies.delete.unreachableTitle')}</AlertTitle>
            <AlertDescription>{unreachable}</AlertDescription>
          </Alert>
        ) : (
          <div className="flex items-start gap-3">
            <Checkbox
              id="delete-remove-from-server"
              checked={removeFromServer}
              onCheckedChange={(value) => setRemoveFromServer(value === true)}
              disabled={pending}
              aria-describedby="delete-remove-from-server-hint"
              className="mt-0.5"
              data-testid="delete-remove-from-server"
            />
            <div className="grid gap-1">
              <Label htmlFor="delete-remove-from-server">
                {t('proxies.delete.removeFromServer')}
              </Label>
              <p id="delete-remove-from-server-hint" className="text-xs text-muted-foreground">
                {t('proxies.delete.removeFromServerHint')}
              </p>
            </div>
          </div>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending} data-testid="delete-cancel">
            {t('proxies.dialog.cancel')}
          </AlertDialogCancel>
          {unreachable ? (
            <Button
              variant="destructive"
              disabled={pending}
              onClick={() => void run(false)}
              data-testid="delete-portico-only"
            >
              {pending ? <Spinner className="text-current" /> : <Trash2Icon aria-hidden="true" />}
              {t('proxies.delete.porticoOnly')}
            </Button>
          ) : (
            <Button
              variant="destructive"
              disabled={pending}
              onClick={() => void run(removeFromServer)}
              data-testid="delete-confirm"
            >
              {pending ? <Spinner className="text-current" /> : <Trash2Icon aria-hidden="true" />}
              {pending ? t('proxies.delete.deleting') : t('proxies.delete.confirm')}
            </Button>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
