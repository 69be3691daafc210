import { CircleAlertIcon, KeyRoundIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import type { TWizardState } from '../state/wizard-reducer';
import { StatusIcon, sshTone } from './status-icon';

const BADGE = {
  pending: 'outline',
  validating: 'secondary',
  verified: 'success',
  failed: 'destructive',
} as const;

export function SshCheckCard({ ssh }: { ssh: TWizardState['ssh'] }) {
  const { t } = useTranslation();
  const fingerprint = ssh.result?.fingerprint ?? null;
  return (
    <section
      className="grid gap-3 rounded-lg border border-border p-4"
      aria-labelledby="wizard-ssh-title"
      data-testid="wizard-ssh"
      data-status={ssh.status}
    >
      <div className="flex flex-wrap items-center gap-2">
        <StatusIcon tone={sshTone[ssh.status]} />
        <h3 id="wizard-ssh-title" className="font-semibold">
          {t('wizard.validation.sshTitle')}
        </h3>
        <Badge variant={BADGE[ssh.status]} className="ml-auto" data-testid="wizard-ssh-badge">
          {t(`wizard.validation.sshStatus.${ssh.status}`)}
        </Badge>
      </div>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {t(`wizard.validation.sshText.${ssh.status}`)}
      </p>
      {ssh.status === 'failed' ? (
        <Alert variant="destructive" data-testid="wizard-ssh-error">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{t('wizard.validation.sshFailed')}</AlertTitle>
          <AlertDescription className="grid gap-2">
            {ssh.error ? <p>{ssh.error}</p> : null}
            <p>{t('wizard.validation.sshVerify')}</p>
          </AlertDescription>
        </Alert>
      ) : null}
      {ssh.status === 'verified' && fingerprint ? (
        <div className="grid gap-1.5 rounded-md bg-muted p-3 text-sm">
          <p className="inline-flex items-center gap-2 font-medium">
            <KeyRoundIcon className="size-4" aria-hidden="true" />
            {t('wizard.validation.fingerprint')}
          </p>
          <code className="font-mono text-xs break-all" data-testid="wizard-ssh-fingerprint">
            {fingerprint}
          </code>
          <p className="text-xs text-muted-foreground">{t('wizard.validation.fingerprintHelp')}</p>
        </div>
      ) : null}
    </section>
  );
}
