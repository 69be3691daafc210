import { CUSTOM_CHAIN_MAX, CUSTOM_KEY_MAX } from '@portico/shared/certificates/custom';
import type { TCustomCertificate } from '@portico/shared/certificates/schemas';
import type { TText } from '@portico/shared/i18n/text';
import { FileUpIcon, FolderOpenIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { reasonText } from '@/lib/form-errors';
import { formatMoment } from '@/lib/format-date';
import { useLogText } from '@/lib/log-text';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { useRemoveUploadedCertificate, useUploadCertificate } from '../api/certificate';
import { dlClass, Row } from './details-sections';
import { FormToggle } from './form-toggle';
import { RemoveWithConfirm } from './remove-with-confirm';

type TField = 'certificate' | 'privateKey';
const LIMITS: Record<TField, number> = {
  certificate: CUSTOM_CHAIN_MAX,
  privateKey: CUSTOM_KEY_MAX,
};

/** A PEM field that takes a paste or a chosen file, refusing one over its limit before sending. */
function PemField({
  field,
  value,
  onChange,
  onTooLarge,
}: {
  field: TField;
  value: string;
  onChange: (text: string) => void;
  onTooLarge: (field: TField) => void;
}) {
  const { t } = useCertificateTexts();
  const id = `upload-${field}`;
  const picker = React.useRef<HTMLInputElement>(null);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > LIMITS[field]) onTooLarge(field);
    else onChange(await file.text());
  };
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{t(`certificate.upload.${field}`)}</Label>
      <Textarea
        id={id}
        value={value}
        spellCheck={false}
        autoComplete="off"
        className="min-h-28 font-mono text-xs"
        placeholder={t(`certificate.upload.${field}Placeholder`)}
        onChange={(e) =>
          e.target.value.length > LIMITS[field] ? onTooLarge(field) : onChange(e.target.value)
        }
        data-testid={id}
      />
      {/* The browser's own file button speaks the browser's language: ours is the button below. */}
      <input
        ref={picker}
        type="file"
        accept=".pem,.crt,.cer,.key,text/plain"
        tabIndex={-1}
        aria-hidden="true"
        className="sr-only"
        onChange={(e) => {
          void choose(e.target.files?.[0]);
          e.target.value = '';
        }}
        data-testid={`${id}-file`}
      />
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => picker.current?.click()}>
          <FolderOpenIcon aria-hidden="true" />
          {t(`certificate.upload.${field}File`)}
        </Button>
      </div>
    </div>
  );
}

function Uploaded({ uploaded }: { uploaded: TCustomCertificate }) {
  const { t, i18n } = useCertificateTexts();
  return (
    <dl className={dlClass} data-testid="uploaded-certificate">
      <Row wrap="anywhere" label={t('certificate.section.issuer')}>
        {uploaded.issuer}
      </Row>
      <Row wrap="anywhere" label={t('certificate.section.names')}>
        {uploaded.names.join(', ')}
      </Row>
      <Row wrap="anywhere" label={t('certificate.section.expires')} testId="uploaded-expires">
        {formatMoment(uploaded.notAfter, i18n.language)}
      </Row>
      <Row wrap="anywhere" label={t('certificate.section.fingerprint')}>
        <code className="font-mono text-xs break-all">{uploaded.fingerprint}</code>
      </Row>
    </dl>
  );
}

/**
 * Your own certificate (issue 41): upload a PEM chain and key (pasted or chosen), replace it the
 * same way, or remove it to go back to the CA. A deployment serves what is stored here; the
 * server's refusals are shown as it worded them, again in the other language after a switch.
 */
export function UploadedCertificate({
  proxyId,
  uploaded,
}: {
  proxyId: string;
  uploaded: TCustomCertificate | null | undefined;
}) {
  const { t } = useCertificateTexts();
  const words = useLogText();
  const upload = useUploadCertificate(proxyId);
  const remove = useRemoveUploadedCertificate(proxyId);
  const [open, setOpen] = React.useState(false);
  const [pem, setPem] = React.useState<Record<TField, string>>({ certificate: '', privateKey: '' });
  // Kept as what it says, not as words: shown again in the other language after a switch.
  const [problem, setProblem] = React.useState<{ tooLarge: TField } | { server: TText } | null>(
    null,
  );

  const set = (field: TField) => (text: string) => {
    setProblem(null);
    setPem((p) => ({ ...p, [field]: text }));
  };
  const tooLarge = (field: TField) => setProblem({ tooLarge: field });
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(null);
    try {
      await upload.mutateAsync(pem);
      setPem({ certificate: '', privateKey: '' });
      setOpen(false);
      toast({
        title: t('certificate.upload.saved'),
        description: t('certificate.upload.deployHint'),
      });
    } catch (error) {
      setProblem({ server: reasonText(error) ?? { key: 'errors.general' } });
    }
  };

  return (
    <div className="grid gap-2" data-testid="certificate-upload">
      <h3 className="text-sm font-medium">{t('certificate.upload.title')}</h3>
      <p className="text-xs text-muted-foreground">
        {t(uploaded ? 'certificate.upload.inUse' : 'certificate.upload.description')}
      </p>
      {uploaded ? <Uploaded uploaded={uploaded} /> : null}
      <FormToggle
        open={open}
        onOpenChange={setOpen}
        icon={<FileUpIcon aria-hidden="true" />}
        label={t(uploaded ? 'certificate.upload.replace' : 'certificate.upload.open')}
        testId="upload-open"
      >
        {uploaded ? (
          <RemoveWithConfirm
            texts="certificate.upload"
            testId="upload-remove"
            icon={<Trash2Icon aria-hidden="true" />}
            remove={() => remove.mutateAsync()}
          />
        ) : null}
      </FormToggle>
      {open ? (
        <form className="grid gap-3" onSubmit={(e) => void submit(e)} data-testid="upload-form">
          <PemField
            field="certificate"
            value={pem.certificate}
            onChange={set('certificate')}
            onTooLarge={tooLarge}
          />
          <PemField
            field="privateKey"
            value={pem.privateKey}
            onChange={set('privateKey')}
            onTooLarge={tooLarge}
          />
          {problem ? (
            <p role="alert" className="text-sm text-destructive" data-testid="upload-problem">
              {'server' in problem
                ? words.text(problem.server)
                : t('certificate.upload.tooLarge', {
                    field: t(`certificate.upload.${problem.tooLarge}`),
                    kib: LIMITS[problem.tooLarge] / 1024,
                  })}
            </p>
          ) : null}
          <div>
            <BusyButton
              busy={upload.isPending}
              type="submit"
              size="sm"
              disabled={!pem.certificate || !pem.privateKey}
              data-testid="upload-submit"
            >
              {t('certificate.upload.submit')}
            </BusyButton>
          </div>
        </form>
      ) : null}
    </div>
  );
}
