import { EXPORT_PASSPHRASE_MIN } from '@portico/shared/transfer/schemas';
import { DownloadIcon, UploadIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
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
            <Input
              {...aria}
              type="file"
              accept="application/json,.json"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setFileError(undefined);
              }}
            />
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
