import { CircleAlertIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import type { TWizardState } from '../state/wizard-reducer';
import { dnsTone, StatusIcon } from './status-icon';

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
}: {
  dns: TWizardState['dns'];
  domain: string;
  serverIp: string;
}) {
  const { t } = useTranslation();
  const result = dns.result;
  const resolved = result?.resolvedIps ?? [];
  const showDetails = dns.status === 'verified' || dns.status === 'failed';
  return (
    <section
      className="grid gap-3 rounded-lg border border-border p-4"
      aria-labelledby="wizard-dns-title"
      data-testid="wizard-dns"
      data-status={dns.status}
    >
      <div className="flex flex-wrap items-center gap-2">
        <StatusIcon tone={dnsTone[dns.status]} />
        <h3 id="wizard-dns-title" className="font-semibold">
          {t('wizard.validation.dnsTitle')}
        </h3>
        <Badge variant={BADGE[dns.status]} className="ml-auto" data-testid="wizard-dns-badge">
          {t(`wizard.validation.dnsStatus.${dns.status}`)}
        </Badge>
      </div>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {t(`wizard.validation.dnsText.${dns.status}`, { domain })}
      </p>
      {showDetails ? (
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
      ) : null}
      {dns.status === 'failed' ? (
        <Alert variant="destructive" data-testid="wizard-dns-error">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{t('wizard.validation.dnsFailedTitle')}</AlertTitle>
          <AlertDescription className="grid gap-2">
            {dns.error ? <p>{dns.error}</p> : null}
            <p>{t('wizard.validation.dnsInstructions', { domain, ip: serverIp })}</p>
          </AlertDescription>
        </Alert>
      ) : null}
      <p className="text-xs text-muted-foreground">{t('wizard.validation.dnsHelp')}</p>
    </section>
  );
}
