import { isWildcard, WILDCARD_PREFIX } from '@portico/shared/certificates/dns-challenge';
import { isDomain } from '@portico/shared/validation/rules';
import { ExternalLinkIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useCertificateTexts } from '@/lib/use-group-texts';

// A wildcard proxy (`*.example.com`) has no address of its own: `https://*.example.com` opens
// nothing. What is true is "any name under example.com" (and the bare name when the certificate
// covers it), so the screens that offer a site's address ask for the name to open instead.

/** The name a wildcard covers names under (`example.com` for `*.example.com`), else null. */
export function wildcardBase(domain: string): string | null {
  return isWildcard(domain) ? domain.slice(WILDCARD_PREFIX.length) : null;
}

/**
 * The address of a name typed under a wildcard's base (`www` → `https://www.example.com`), or
 * null when the name is not a host name: labels of letters, digits and hyphens, no `*`.
 */
export function nameUnderUrl(typed: string, base: string): string | null {
  const label = typed.trim().toLowerCase().replace(/\.$/, '');
  if (!label || label.includes('*') || label.includes('/')) return null;
  const host = `${label}.${base}`;
  return isDomain(host) ? `https://${host}` : null;
}

/**
 * "Any name under example.com", with a field for the first labels and a link to open that name;
 * the link waits for a valid name. `idPrefix` keeps ids apart when a screen shows several.
 */
export function WildcardOpen({ domain, idPrefix }: { domain: string; idPrefix: string }) {
  const { t } = useCertificateTexts();
  const base = wildcardBase(domain) ?? domain;
  const [typed, setTyped] = React.useState('');
  const url = nameUnderUrl(typed, base);
  const inputId = `${idPrefix}-wildcard-name`;
  const open = t('certificate.wildcard.open');
  return (
    <div className="grid min-w-0 gap-2" data-testid="wildcard-open">
      <label htmlFor={inputId} className="text-sm [overflow-wrap:anywhere]">
        {t('certificate.wildcard.anyName', { base })}
      </label>
      {/* The field keeps its width; the name after it breaks anywhere rather than be cut. */}
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <div className="flex min-w-0 flex-1 basis-48 items-center gap-1">
          <Input
            id={inputId}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="www"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={typed.trim() !== '' && !url}
            className="w-28 shrink-0 font-mono"
            data-testid="wildcard-name"
          />
          <span className="min-w-0 font-mono text-sm break-all text-muted-foreground">.{base}</span>
        </div>
        {url ? (
          <Button asChild size="sm">
            <a href={url} target="_blank" rel="noopener noreferrer" data-testid="wildcard-go">
              <ExternalLinkIcon aria-hidden="true" />
              {open}
              <span className="sr-only"> {url}</span>
            </a>
          </Button>
        ) : (
          <Button size="sm" disabled data-testid="wildcard-go">
            <ExternalLinkIcon aria-hidden="true" />
            {open}
          </Button>
        )}
      </div>
      {typed.trim() !== '' && !url ? (
        <p className="text-xs text-destructive" role="alert" data-testid="wildcard-name-problem">
          {t('certificate.wildcard.badName')}
        </p>
      ) : null}
    </div>
  );
}
