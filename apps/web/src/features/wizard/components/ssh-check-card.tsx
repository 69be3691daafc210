import { KeyRoundIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLogText } from '@/lib/log-text';
import type { TWizardState } from '../state/wizard-reducer';
import { CheckCard } from './check-card';
import { sshTone } from './status-icon';

const BADGE = {
  pending: 'outline',
  validating: 'secondary',
  verified: 'success',
  failed: 'destructive',
} as const;

export function SshCheckCard({ ssh }: { ssh: TWizardState['ssh'] }) {
  const { t } = useTranslation();
  // The cause is kept as a text: it follows a language switch like the rest of the screen.
  const words = useLogText();
  const fingerprint = ssh.result?.fingerprint ?? null;
  return (
    <CheckCard
      check="ssh"
      status={ssh.status}
      tone={sshTone[ssh.status]}
      badge={BADGE[ssh.status]}
      title={t('wizard.validation.sshTitle')}
      statusText={t(`wizard.validation.sshStatus.${ssh.status}`)}
      text={ssh.status === 'failed' ? '' : t(`wizard.validation.sshText.${ssh.status}`)}
      failure={
        ssh.status === 'failed'
          ? {
              title: t('wizard.validation.sshFailed'),
              cause: ssh.error === null ? null : words.text(ssh.error),
              advice: t('wizard.validation.sshVerify'),
            }
          : undefined
      }
    >
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
    </CheckCard>
  );
}
