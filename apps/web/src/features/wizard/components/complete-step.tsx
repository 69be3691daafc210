import { useQuery } from '@tanstack/react-query';
import {
  CheckCircle2Icon,
  CircleHelpIcon,
  CopyIcon,
  ExternalLinkIcon,
  LayoutDashboardIcon,
  PlusIcon,
  XCircleIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { WildcardOpen } from '@/components/wildcard-open';
import { toast } from '@/hooks/use-toast';
import { useCertificate } from '@/lib/certificate-status';
import { useSiteUrl } from '@/lib/dns-challenge';
import { proxyConfigurationQueryOptions } from '@/lib/live-deployment/queries';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { StepCard } from './step-card';

/**
 * "The certificate renews automatically" only when the deployment found or set up a working
 * scheduler on the server; otherwise what is missing and what to do, as the server said it.
 */
function RenewalStatement({ configurationId }: { configurationId: string | undefined }) {
  const { t } = useCertificateTexts();
  const { data, isPending } = useCertificate(configurationId);
  const renewal = data?.renewal;
  const className = 'mt-0.5 size-4 shrink-0';
  let icon = <CircleHelpIcon className={`${className} text-warning`} aria-hidden="true" />;
  let text = t(isPending ? 'wizard.complete.renewal.checking' : 'wizard.complete.renewal.unknown');
  if (renewal?.working) {
    icon = <CheckCircle2Icon className={`${className} text-success`} aria-hidden="true" />;
    const how = `${t(`certificate.section.method.${renewal.method}`)}${renewal.where ? ` (${renewal.where})` : ''}`;
    text = t('wizard.complete.renewal.working', { how });
  } else if (renewal) {
    icon = <XCircleIcon className={`${className} text-destructive`} aria-hidden="true" />;
    text = t('wizard.complete.renewal.missing', { why: renewal.notes.join(' ') });
  }
  return (
    <li
      className="flex items-start gap-2"
      data-testid="wizard-complete-renewal"
      data-working={renewal ? renewal.working : undefined}
    >
      {icon}
      <span className="break-words">{text}</span>
    </li>
  );
}

/**
 * Where the site's nginx file is, as the deployment recorded it on this server (Debian's
 * sites-available or conf.d, and a shortened name for long domains): no path before it is known.
 */
function ConfigStatement({ configurationId }: { configurationId: string | undefined }) {
  const { t } = useTranslation();
  const { data } = useQuery({
    ...proxyConfigurationQueryOptions(configurationId ?? ''),
    enabled: Boolean(configurationId),
  });
  const path = data?.nginxConfigPath;
  if (!path) return null;
  return (
    <li className="flex items-start gap-2" data-testid="wizard-complete-config">
      <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
      <span className="break-words">{t('wizard.complete.statements.config', { path })}</span>
    </li>
  );
}

export function CompleteStep({
  domain,
  configurationId,
  onCreateAnother,
  onDashboard,
}: {
  domain: string;
  configurationId?: string;
  onCreateAnother: () => void;
  onDashboard: () => void;
}) {
  const { t } = useTranslation();
  // A wildcard answers at its bare name only when the certificate covers it; else at any name
  // under it, which the field below opens.
  const { url, wildcard } = useSiteUrl(domain, configurationId);
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: t('wizard.complete.copySuccess'), description: url });
    } catch {
      toast({ variant: 'destructive', title: t('wizard.complete.copyError') });
    }
  };
  const statements = ['https', 'redirect'] as const;
  return (
    <StepCard title={t('wizard.complete.title')} description={t('wizard.complete.description')}>
      <ul className="grid gap-2 text-sm" data-testid="wizard-complete-statements">
        {statements.map((key) => (
          <li key={key} className="flex items-start gap-2">
            <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
            <span className="break-words">
              {t(`wizard.complete.statements.${key}`, { domain })}
            </span>
          </li>
        ))}
        <RenewalStatement configurationId={configurationId} />
        <ConfigStatement configurationId={configurationId} />
      </ul>
      <div className="grid gap-2 rounded-lg border border-border bg-muted/50 p-4">
        <span className="text-sm font-medium" id="wizard-url-label">
          {t('wizard.complete.urlLabel')}
        </span>
        {url ? (
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            className="font-mono text-sm font-medium break-all text-primary underline-offset-4 hover:underline"
            aria-describedby="wizard-url-label"
            data-testid="wizard-complete-url"
          >
            {url}
          </a>
        ) : null}
        {wildcard ? <WildcardOpen domain={domain} idPrefix="wizard-complete" /> : null}
      </div>
      {/* One primary action (the site); the rest outline, as elsewhere in the app. Each action
          once: the URL above is a link, not a second set of copy and open buttons. */}
      <div className="grid gap-2 sm:grid-cols-2" data-testid="wizard-complete-actions">
        {url ? (
          <>
            <Button asChild>
              <a
                href={url}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="wizard-visit-site"
              >
                <ExternalLinkIcon aria-hidden="true" />
                {t('wizard.complete.visit')}
              </a>
            </Button>
            <Button variant="outline" onClick={copy} data-testid="wizard-copy-url">
              <CopyIcon aria-hidden="true" />
              {t('wizard.complete.copy')}
            </Button>
          </>
        ) : null}
        <Button variant="outline" onClick={onCreateAnother} data-testid="wizard-create-another">
          <PlusIcon aria-hidden="true" />
          {t('wizard.complete.createAnother')}
        </Button>
        <Button variant="outline" onClick={onDashboard} data-testid="wizard-dashboard">
          <LayoutDashboardIcon aria-hidden="true" />
          {t('wizard.complete.dashboard')}
        </Button>
      </div>
    </StepCard>
  );
}
