import { EXPORT_PASSPHRASE_MIN } from '@portico/shared/transfer/schemas';
import { DownloadIcon, FolderOpenIcon, UploadIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { toast } from '@/hooks/use-toast';
import { toastFailure } from '@/lib/toast-outcome';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { useExportAccount, useImportAccount } from '../api/transfer';

function ExportForm() {
  const { t } = useSettingsTexts();
  const exporting = useExportAccount();
  const [passphrase, setPassphrase] = React.useState('');
  const short = passphrase.length > 0 && passphrase.length < EXPORT_PASSPHRASE_MIN;
  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (short) return;
    try {
      await exporting.mutateAsync(passphrase);
      toast({ title: t('settings.transfer.exported') });
    } catch (error) {
      toastFailure(error, t, t('settings.transfer.exportFailed'));
    }
  };
  return (
    <form className="grid gap-4" onSubmit={onSubmit} aria-label={t('settings.transfer.export')}>
      <Field
        id="transfer-export-passphrase"
        label={t('settings.transfer.exportPassphrase')}
        hint={t('settings.transfer.exportHint', { min: EXPORT_PASSPHRASE_MIN })}
        error={short ? t('validation.import.passphraseShort') : undefined}
      >
        {(aria) => (
          <PasswordInput
            {...aria}
            autoComplete="new-password"
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
          />
        )}
      </Field>
      <div>
        <Button type="submit" disabled={exporting.isPending} data-testid="transfer-export">
          <DownloadIcon aria-hidden="true" />
          {t('settings.transfer.export')}
        </Button>
      </div>
    </form>
  );
}

function ImportForm() {
  const { t } = useSettingsTexts();
  const importing = useImportAccount();
  const [file, setFile] = React.useState<File | null>(null);
  const [passphrase, setPassphrase] = React.useState('');
  const [fileError, setFileError] = React.useState<string | undefined>();
  const formRef = React.useRef<HTMLFormElement>(null);
  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) return setFileError(t('settings.transfer.fileRequired'));
    let document: unknown;
    try {
      document = JSON.parse(await file.text());
    } catch {
      return setFileError(t('settings.transfer.notJson'));
    }
    setFileError(undefined);
    try {
      const report = await importing.mutateAsync({
        document,
        ...(passphrase ? { passphrase } : {}),
      });
      toast({
        title: t('settings.transfer.imported'),
        description: t('settings.transfer.importedCounts', {
          servers: report.servers,
          proxies: report.proxies,
        }),
      });
      formRef.current?.reset();
      setFile(null);
      setPassphrase('');
    } catch (error) {
      toastFailure(error, t, t('settings.transfer.importFailed'));
    }
  };
  return (
    <form
      ref={formRef}
      className="grid gap-4"
      onSubmit={onSubmit}
      aria-label={t('settings.transfer.import')}
    >
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field id="transfer-import-file" label={t('settings.transfer.file')} error={fileError}>
          {(aria) => (
            // The browser's own file button speaks the browser's language: the input takes the
            // focus (Space opens the picker) and our label, in the reader's, stands for it.
            <div className="flex min-w-0 flex-wrap items-center gap-2">
              <div className="w-fit rounded-md focus-within:ring-2 focus-within:ring-ring">
                <Button type="button" variant="outline" size="sm" asChild>
                  <label htmlFor={aria.id} className="cursor-pointer">
                    <FolderOpenIcon aria-hidden="true" />
                    {t('settings.transfer.chooseFile')}
                  </label>
                </Button>
                <input
                  {...aria}
                  type="file"
                  accept="application/json,.json"
                  className="sr-only"
                  onChange={(e) => {
                    setFile(e.target.files?.[0] ?? null);
                    setFileError(undefined);
                  }}
                  data-testid="transfer-import-file"
                />
              </div>
              <span
                className="min-w-0 text-sm text-muted-foreground [overflow-wrap:anywhere]"
                data-testid="transfer-import-file-name"
              >
                {file ? file.name : t('settings.transfer.noFile')}
              </span>
            </div>
          )}
        </Field>
        <Field
          id="transfer-import-passphrase"
          label={t('settings.transfer.importPassphrase')}
          hint={t('settings.transfer.importHint')}
        >
          {(aria) => (
            <PasswordInput
              {...aria}
              autoComplete="off"
              value={passphrase}
              onChange={(e) => setPassphrase(e.target.value)}
            />
          )}
        </Field>
      </div>
      <div>
        <Button
          type="submit"
          variant="outline"
          disabled={importing.isPending}
          data-testid="transfer-import"
        >
          <UploadIcon aria-hidden="true" />
          {t('settings.transfer.import')}
        </Button>
      </div>
    </form>
  );
}

/** The account's servers and proxies as a JSON file: download one, or add one's contents. */
export function TransferSection() {
  return (
    <>
      <ExportForm />
      <ImportForm />
    </>
  );
}
