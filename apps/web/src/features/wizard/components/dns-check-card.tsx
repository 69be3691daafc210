import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useLogText } from '@/lib/log-text';
import type { TWizardState } from '../state/wizard-reducer';
import { CheckCard } from './check-card';
import { dnsTone } from './status-icon';

const BADGE = {
  waiting: 'outline',
  validating: 'secondary',
  verified: 'success',
  failed: 'destructive',
} as const;

export function DnsCheckCard({
  dns,
  domain,
  serverIp,
  note,
}: {
  dns: TWizardState['dns'];
  domain: string;
  serverIp: string;
  /** What the certificate method changes about this check (DNS-01). */
  note?: React.ReactNode;
}) {
  const { t } = useTranslation();
  // The cause is kept as a text: it follows a language switch like the rest of the screen.
  const words = useLogText();
  const result = dns.result;
  const resolved = result?.resolvedIps ?? [];
  const showDetails = dns.status === 'verified' || dns.status === 'failed';
  return (
    <CheckCard
      check="dns"
      status={dns.status}
      tone={dnsTone[dns.status]}
      badge={BADGE[dns.status]}
      title={t('wizard.validation.dnsTitle')}
      statusText={t(`wizard.validation.dnsStatus.${dns.status}`)}
      text={dns.status === 'failed' ? '' : t(`wizard.validation.dnsText.${dns.status}`, { domain })}
      details={
        showDetails ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
            <dt className="text-muted-foreground">{t('wizard.validation.recordsFound')}</dt>
            <dd data-testid="wizard-dns-records">{resolved.length}</dd>
            <dt className="text-muted-foreground">{t('wizard.validation.expectedIp')}</dt>
            <dd className="font-mono break-all">{result?.expectedIp ?? serverIp}</dd>
            <dt className="text-muted-foreground">{t('wizard.validation.actualIp')}</dt>
            <dd className="font-mono break-all" data-testid="wizard-dns-actual">
              {resolved.length > 0 ? resolved.join(', ') : t('wizard.validation.none')}
            </dd>
            <dt className="text-muted-foreground">{t('wizard.validation.match')}</dt>
            <dd>
              {dns.status === 'verified' ? t('wizard.validation.yes') : t('wizard.validation.no')}
            </dd>
          </dl>
        ) : null
      }
      failure={
        dns.status === 'failed'
          ? {
              title: t('wizard.validation.dnsFailedTitle'),
              cause: dns.error === null ? null : words.text(dns.error),
              advice: t('wizard.validation.dnsInstructions', { domain, ip: serverIp }),
            }
          : undefined
      }
    >
      <p className="text-xs text-muted-foreground">{t('wizard.validation.dnsHelp')}</p>
      {note}
    </CheckCard>
  );
}
