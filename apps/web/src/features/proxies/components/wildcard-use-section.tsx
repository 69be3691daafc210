import { coveringWildcard } from '@portico/shared/certificates/wildcard-use';
import type { TText } from '@portico/shared/i18n/text';
import { ShieldCheckIcon, Undo2Icon } from 'lucide-react';
import * as React from 'react';
import { BusyButton } from '@/components/ui/busy-button';
import { toast } from '@/hooks/use-toast';
import { reasonText } from '@/lib/form-errors';
import { useLogText } from '@/lib/log-text';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { useChooseWildcard, useStopUsingWildcard, useWildcardChoices } from '@/lib/wildcard-use';
import { RemoveWithConfirm } from './remove-with-confirm';

/**
 * The wildcard certificate of the same server (issue 41): shown only when the server says one
 * covers the domain, or the proxy already uses one. The owner may choose it (the next
 * deployment serves it, certbot not run for the domain) or go back to a certificate of its own.
 */
export function WildcardUseSection({ proxyId, domain }: { proxyId: string; domain: string }) {
  const { t } = useCertificateTexts();
  const covered = coveringWildcard(domain) !== undefined;
  const query = useWildcardChoices(proxyId, covered);
  const choose = useChooseWildcard();
  const stop = useStopUsingWildcard(proxyId);
  const words = useLogText();
  // Kept as a text: a refusal follows a language switch.
  const [refusal, setRefusal] = React.useState<TText | null>(null);
  const current = query.data?.current ?? null;
  const offered = query.data?.available?.[0] ?? null;
  if (!covered || (!current && !offered)) return null;
  return (
    <div className="grid gap-2" data-testid="wildcard-use" data-using={current ? 'yes' : 'no'}>
      <h3 className="text-sm font-medium">{t('certificate.wildcard.title')}</h3>
      <p className="text-sm [overflow-wrap:anywhere]" data-testid="wildcard-use-state">
        {current
          ? t('certificate.wildcard.using', { wildcard: current.domain })
          : t('certificate.wildcard.offer', { wildcard: offered?.domain ?? '' })}
      </p>
      <div className="flex flex-wrap gap-2">
        {current ? (
          <RemoveWithConfirm
            texts="certificate.wildcard"
            testId="wildcard-use-stop"
            icon={<Undo2Icon aria-hidden="true" />}
            params={{ domain }}
            remove={() => stop.mutateAsync()}
          />
        ) : offered ? (
          <BusyButton
            busy={choose.isPending}
            variant="outline"
            size="sm"
            className="h-auto min-h-8 whitespace-normal text-left"
            data-testid="wildcard-use-choose"
            icon={<ShieldCheckIcon aria-hidden="true" />}
            onClick={() => {
              setRefusal(null);
              choose.mutateAsync({ id: proxyId, holderId: offered.holderId }).then(
                () =>
                  toast({
                    title: t('certificate.wildcard.chosen'),
                    description: t('certificate.wildcard.deployHint'),
                  }),
                (error: unknown) => setRefusal(reasonText(error) ?? { key: 'errors.general' }),
              );
            }}
          >
            {t('certificate.wildcard.use', { wildcard: offered.domain })}
          </BusyButton>
        ) : null}
      </div>
      {refusal ? (
        <p role="alert" className="text-sm text-destructive" data-testid="wildcard-use-problem">
          {words.text(refusal)}
        </p>
      ) : null}
    </div>
  );
}
