import { isWildcard } from '@portico/shared/certificates/dns-challenge';
import type { TDnsProviderOffers } from '@portico/shared/certificates/dns-providers';
import type { TText } from '@portico/shared/i18n/text';
import { KeyRoundIcon, Undo2Icon } from 'lucide-react';
import * as React from 'react';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import {
  dnsChallengeOf,
  emptyDnsDraft,
  offerIn,
  type TDnsProblems,
  useDnsChallenge,
  useRemoveDnsChallenge,
  useSaveDnsChallenge,
} from '@/lib/dns-challenge';
import { reasonText } from '@/lib/form-errors';
import { formatMoment } from '@/lib/format-date';
import { useLogText } from '@/lib/log-text';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { FormToggle } from './form-toggle';
import { RemoveWithConfirm } from './remove-with-confirm';

// Loaded when the form opens: shared with the wizard, a static import made the bundler split
// the landing page's chunks past its budget (e2e/first-paint.spec.ts).
const DnsChallengeFields = React.lazy(() =>
  import('@/components/dns-challenge-fields').then((m) => ({ default: m.DnsChallengeFields })),
);

/**
 * The credentials form (write-only), opened in the section like the upload beside it: it
 * starts empty every time, with the stored provider and apex choice. Refusals are kept as
 * texts: they follow a language switch.
 */
function CredentialsForm({
  proxyId,
  domain,
  onOpenChange,
  stored,
  offers,
}: {
  proxyId: string;
  domain: string;
  onOpenChange: (open: boolean) => void;
  stored: { provider: (typeof emptyDnsDraft)['provider']; includeApex: boolean } | null;
  offers: TDnsProviderOffers;
}) {
  const { t } = useCertificateTexts();
  const words = useLogText();
  const save = useSaveDnsChallenge();
  const wildcard = isWildcard(domain);
  const [draft, setDraft] = React.useState(() => ({ ...emptyDnsDraft, ...stored }));
  const [problems, setProblems] = React.useState<TDnsProblems>({});
  const [refusal, setRefusal] = React.useState<TText | null>(null);
  // Closed, the form goes: what was typed goes with it.
  const close = (open: boolean) => onOpenChange(open);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const checked = dnsChallengeOf(draft, wildcard);
    if ('problems' in checked) {
      setProblems(checked.problems);
      return;
    }
    // A provider the server does not offer says so under the list already; the server would refuse it.
    if (offerIn(offers, draft.provider) === 'not_offered') return;
    try {
      await save.mutateAsync({ id: proxyId, input: checked.input });
      close(false);
      toast({ title: t('certificate.dns.saved'), description: t('certificate.dns.deployHint') });
    } catch (error) {
      setRefusal(reasonText(error) ?? { key: 'errors.general' });
    }
  };
  return (
    <form
      className="grid gap-4 rounded-lg border border-border p-4"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={t(stored ? 'certificate.dns.replaceTitle' : 'certificate.dns.useTitle')}
      data-testid="dns-challenge-form"
    >
      <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
        {t('certificate.dns.dialogDescription', { domain })}
      </p>
      <React.Suspense fallback={<Skeleton className="h-40 w-full" />}>
        <DnsChallengeFields
          idPrefix="proxy-dns"
          draft={draft}
          onChange={(next) => {
            setProblems({});
            setRefusal(null);
            setDraft(next);
          }}
          problems={problems}
          wildcard={wildcard ? { domain } : null}
          offers={offers}
        />
      </React.Suspense>
      {refusal ? (
        <p role="alert" className="text-sm text-destructive" data-testid="dns-challenge-problem">
          {words.text(refusal)}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <BusyButton busy={save.isPending} type="submit" size="sm" data-testid="dns-challenge-save">
          {t('certificate.dns.save')}
        </BusyButton>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={save.isPending}
          onClick={() => close(false)}
        >
          {t('certificate.dns.cancel')}
        </Button>
      </div>
    </form>
  );
}

/**
 * How the proxy's certificate is obtained (issue 41): HTTP-01, or "DNS-01 via <provider>" with
 * when its credentials were entered (never the credentials). The owner may replace them, or go
 * back to HTTP-01 unless the domain is a wildcard, which has no other way.
 */
export function DnsChallengeSection({ proxyId, domain }: { proxyId: string; domain: string }) {
  const { t, i18n } = useCertificateTexts();
  const query = useDnsChallenge(proxyId);
  const remove = useRemoveDnsChallenge(proxyId);
  const [open, setOpen] = React.useState(false);
  if (query.isPending || query.isError) return null;
  const { dnsChallenge: challenge, providers } = query.data;
  const provider = challenge ? t(`certificate.dns.providerName.${challenge.provider}`) : '';
  return (
    <div
      className="grid gap-2"
      data-testid="dns-challenge"
      data-method={challenge ? 'dns-01' : 'http-01'}
    >
      <h3 className="text-sm font-medium">{t('certificate.dns.title')}</h3>
      <p className="text-sm [overflow-wrap:anywhere]" data-testid="dns-challenge-method">
        {challenge
          ? t(challenge.includeApex ? 'certificate.dns.viaWithApex' : 'certificate.dns.via', {
              provider,
              apex: domain.replace(/^\*\./, ''),
            })
          : t('certificate.dns.http01')}
      </p>
      {challenge ? (
        <p className="text-xs text-muted-foreground" data-testid="dns-challenge-updated">
          {t('certificate.dns.updated', {
            date: formatMoment(challenge.updatedAt, i18n.language),
            serverIp: challenge.serverIp,
          })}
        </p>
      ) : null}
      <FormToggle
        open={open}
        onOpenChange={setOpen}
        icon={<KeyRoundIcon aria-hidden="true" />}
        label={t(challenge ? 'certificate.dns.replace' : 'certificate.dns.use')}
        testId="dns-challenge-open"
      >
        {challenge && !isWildcard(domain) ? (
          <RemoveWithConfirm
            texts="certificate.dns"
            testId="dns-challenge-remove"
            icon={<Undo2Icon aria-hidden="true" />}
            params={{ domain }}
            remove={() => remove.mutateAsync()}
          />
        ) : null}
      </FormToggle>
      {challenge && isWildcard(domain) ? (
        <p className="text-xs text-muted-foreground" data-testid="dns-challenge-wildcard">
          {t('certificate.dns.wildcardOnly')}
        </p>
      ) : null}
      {open ? (
        <CredentialsForm
          proxyId={proxyId}
          domain={domain}
          onOpenChange={setOpen}
          stored={
            challenge ? { provider: challenge.provider, includeApex: challenge.includeApex } : null
          }
          offers={providers}
        />
      ) : null}
    </div>
  );
}
