import { isWildcard } from '@portico/shared/certificates/dns-challenge';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { CopyIcon, ExternalLinkIcon, PlayIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { EditProxyButton } from '@/components/edit-proxy-button';
import { Button } from '@/components/ui/button';
import { WildcardOpen } from '@/components/wildcard-open';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { continueHref, isContinuable, siteUrl } from '../lib/status';
import { copyUrl } from './copy-url';

type TProps = {
  proxy: TProxyConfiguration;
  onEdit: (proxy: TProxyConfiguration) => void;
};

/**
 * Open and Copy URL on completed proxies (a wildcard: Open a name under it), Edit on every one, Continue Deploy when not done; each
 * with its word, on the card and in the table alike.
 */
export function ProxyActions({ proxy, onEdit }: TProps) {
  const { t } = useTranslation();
  const url = siteUrl(proxy.domain);
  const completed = proxy.status === 'completed';
  // `https://*.example.com` opens nothing: a wildcard asks which name to open.
  const wildcard = isWildcard(proxy.domain);
  return (
    <div className="relative z-10 flex flex-wrap items-center gap-2">
      {completed && wildcard ? <OpenNameUnder proxy={proxy} /> : null}
      {completed && !wildcard ? (
        <>
          <Button asChild size="sm" data-testid="proxy-open">
            <a href={url} target="_blank" rel="noopener noreferrer">
              <ExternalLinkIcon aria-hidden="true" />
              {t('proxies.actions.open')}
              <span className="sr-only">
                {' '}
                {proxy.domain} {t('proxies.newTab')}
              </span>
            </a>
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => void copyUrl(url, t)}
            aria-label={t('proxies.actions.copyUrlOf', { domain: proxy.domain })}
            data-testid="proxy-copy"
          >
            <CopyIcon aria-hidden="true" />
            {t('proxies.actions.copyUrl')}
          </Button>
        </>
      ) : null}
      <EditProxyButton
        status={proxy.status}
        adoption={proxy.adoption}
        label={t('proxies.actions.edit')}
        name={t('proxies.actions.editOf', { domain: proxy.domain })}
        onClick={() => onEdit(proxy)}
        testId="proxy-edit"
      />
      {isContinuable(proxy.status) ? <ContinueButton id={proxy.id} domain={proxy.domain} /> : null}
    </div>
  );
}

/** A wildcard's Open: a toggle that shows the field for the name to open, on a row of its own. */
function OpenNameUnder({ proxy }: { proxy: TProxyConfiguration }) {
  const { t } = useCertificateTexts();
  const [open, setOpen] = React.useState(false);
  return (
    <>
      <Button
        size="sm"
        variant={open ? 'secondary' : 'default'}
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        data-testid="proxy-open-name"
      >
        <ExternalLinkIcon aria-hidden="true" />
        {t('certificate.wildcard.openName')}
        <span className="sr-only"> {proxy.domain}</span>
      </Button>
      {open ? (
        <div className="order-last basis-full">
          <WildcardOpen domain={proxy.domain} idPrefix={`proxy-${proxy.id}`} />
        </div>
      ) : null}
    </>
  );
}

function ContinueButton({ id, domain }: { id: string; domain: string }) {
  const { t } = useTranslation();
  return (
    <Button asChild size="sm" variant="secondary" data-testid="proxy-continue">
      <Link href={continueHref(id)}>
        <PlayIcon aria-hidden="true" />
        {t('proxies.actions.continue')}
        <span className="sr-only"> {domain}</span>
      </Link>
    </Button>
  );
}
