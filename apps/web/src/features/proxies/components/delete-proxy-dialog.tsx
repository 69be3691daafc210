import { siteHasTraces, type TServerSite } from '@portico/shared/proxy/api';
import type { TFunction } from 'i18next';
import { Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { BusyButton } from '@/components/ui/busy-button';
import { Choice } from '@/components/ui/choice';
import { toast } from '@/hooks/use-toast';
import { errorDescription } from '@/lib/form-errors';
import { toastFailure } from '@/lib/toast-outcome';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { offersPorticoOnly } from '../api/delete-proxy';

export type TDeleteChoice = { removeFromServer: boolean; removeCertificate: boolean };

type TProps = {
  domain: string;
  /** The record of what Portico put on servers for this proxy: the dialog says what goes. */
  sites: readonly TServerSite[];
  /** Adopted as it is: its hand-written file, which a delete leaves on the server. */
  adoptedFile?: string | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Deletes; throws the API error (502 server_unreachable offers the Portico-only delete). */
  onDelete: (choice: TDeleteChoice) => Promise<unknown>;
  onDeleted: () => void;
};

const PORTICO_ONLY: TDeleteChoice = { removeFromServer: false, removeCertificate: false };

/** "Removes these files from root@198.51.100.1:22, …" for one recorded site. */
function removalHint(site: TServerSite, t: TFunction): string {
  const server = `${site.sshUser}@${site.serverIp}:${site.sshPort}`;
  return site.files.length > 0
    ? t('proxies.delete.removeFromServerHint', { files: site.files.join(', '), server })
    : t('proxies.delete.removeFromServerAny', { domain: site.domain, server });
}

/**
 * Delete Configuration (docs/PRODUCT.md#delete-dialog). What it offers follows the record of what is on the
 * server: with a site there, it asks to remove it too (default yes, the files named) and, when
 * a certificate is there, to delete it too (default yes: nothing of the site stays); with
 * nothing recorded it says only Portico's configuration goes. When the server cannot be reached
 * the dialog stays open and offers "Delete from Portico only".
 */
export function DeleteProxyDialog({
  domain,
  sites,
  adoptedFile,
  open,
  onOpenChange,
  onDelete,
  onDeleted,
}: TProps) {
  const { t } = useCertificateTexts();
  // The server removes nothing of an adopted site (its file is the user's), whatever it records.
  const onServer = adoptedFile === undefined ? sites.filter(siteHasTraces) : [];
  const certificates = onServer.flatMap((s) => (s.certificate ? [s.certificate.name] : []));
  const [removeFromServer, setRemoveFromServer] = React.useState(true);
  const [removeCertificate, setRemoveCertificate] = React.useState(true);
  const [pending, setPending] = React.useState(false);
  const [unreachable, setUnreachable] = React.useState<string | null>(null);

  React.useEffect(() => {
    if (!open) return;
    setRemoveFromServer(true);
    setRemoveCertificate(true);
    setUnreachable(null);
  }, [open]);

  const run = async (choice: TDeleteChoice) => {
    const remove = choice.removeFromServer;
    setPending(true);
    try {
      await onDelete(choice);
      toast({ title: t('proxies.details.deleteSuccess'), description: domain });
      onOpenChange(false);
      onDeleted();
    } catch (error) {
      if (remove && offersPorticoOnly(error)) {
        setUnreachable(errorDescription(error, t, t('proxies.delete.unreachableDefault')));
      } else {
        toastFailure(error, t, t('proxies.details.deleteError'));
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
          // The server's sentence says what failed, why and what is left to do: no title above
          // it saying again that the site could not be removed.
          <Alert variant="destructive" data-testid="delete-unreachable">
            <AlertDescription>{unreachable}</AlertDescription>
          </Alert>
        ) : adoptedFile !== undefined ? (
          <p className="text-sm text-muted-foreground" data-testid="delete-adopted">
            {t('certificate.section.deleteAdopted', { file: adoptedFile })}
          </p>
        ) : onServer.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="delete-nothing-on-server">
            {t('proxies.delete.nothingOnServer')}
          </p>
        ) : (
          <div className="grid gap-3">
            <Choice
              id="delete-remove-from-server"
              checked={removeFromServer}
              onChange={setRemoveFromServer}
              disabled={pending}
              label={t('proxies.delete.removeFromServer')}
              hint={onServer.map((site) => removalHint(site, t)).join(' ')}
            />
            {certificates.length > 0 ? (
              <Choice
                id="delete-remove-certificate"
                checked={removeFromServer && removeCertificate}
                onChange={setRemoveCertificate}
                disabled={pending || !removeFromServer}
                label={t('proxies.delete.removeCertificate', { name: certificates.join(', ') })}
                hint={t('proxies.delete.removeCertificateHint')}
              />
            ) : null}
            {onServer.some((s) => s.unconfirmed) ? (
              <p className="text-xs text-muted-foreground" data-testid="delete-unconfirmed">
                {t('proxies.delete.unconfirmed')}
              </p>
            ) : null}
          </div>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending} data-testid="delete-cancel">
            {t('proxies.dialog.cancel')}
          </AlertDialogCancel>
          {unreachable ? (
            <BusyButton
              busy={pending}
              icon={<Trash2Icon aria-hidden="true" />}
              variant="destructive"
              onClick={() => void run(PORTICO_ONLY)}
              data-testid="delete-portico-only"
            >
              {t('proxies.delete.porticoOnly')}
            </BusyButton>
          ) : (
            <BusyButton
              busy={pending}
              icon={<Trash2Icon aria-hidden="true" />}
              busyLabel={t('proxies.delete.deleting')}
              variant="destructive"
              onClick={() =>
                void run(
                  onServer.length === 0
                    ? PORTICO_ONLY
                    : {
                        removeFromServer,
                        removeCertificate: removeFromServer && removeCertificate,
                      },
                )
              }
              data-testid="delete-confirm"
            >
              {t('proxies.delete.confirm')}
            </BusyButton>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
