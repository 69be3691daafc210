import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { ReplaceIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useServersTexts } from '@/lib/use-group-texts';
import { ConvertDialog } from './convert-dialog';

/**
 * A site adopted as it is (docs/PRODUCT.md#sites-on-this-server): Portico never writes its
 * hand-written file; the page says so and shows the file as scanned (text only: it came from
 * the server), and whether a later scan found it changed by hand. "Convert to Portico's
 * configuration" shows the plan of its rewrite first.
 */
export function AdoptedSection({ proxy }: { proxy: TProxyConfiguration }) {
  const { t } = useServersTexts();
  const [converting, setConverting] = React.useState(false);
  const adoption = proxy.adoption;
  if (!adoption) return null;
  return (
    <Card data-testid="proxy-adopted">
      <CardHeader>
        <CardTitle>{t('servers.adopted.title')}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="text-sm">{t('servers.adopted.notice')}</p>
        {adoption.changedAt ? (
          <Alert variant="destructive" data-testid="proxy-adopted-changed">
            <AlertDescription>
              {t('servers.adopted.changed', { date: adoption.changedAt.slice(0, 10) })}
            </AlertDescription>
          </Alert>
        ) : null}
        {adoption.missingAt ? (
          <Alert variant="destructive" data-testid="proxy-adopted-missing">
            <AlertDescription>
              {t('servers.adopted.missing', { date: adoption.missingAt.slice(0, 10) })}
            </AlertDescription>
          </Alert>
        ) : null}
        <p className="text-xs text-muted-foreground break-all">{adoption.file}</p>
        {adoption.fileText !== undefined ? (
          <pre
            className="max-h-96 overflow-auto rounded-md bg-muted p-3 text-xs whitespace-pre-wrap break-all"
            data-testid="proxy-adopted-file"
          >
            {adoption.fileText}
          </pre>
        ) : null}
        <Button
          variant="outline"
          className="h-auto justify-self-start whitespace-normal text-left max-sm:w-full"
          onClick={() => setConverting(true)}
          data-testid="proxy-convert"
        >
          <ReplaceIcon aria-hidden="true" />
          {t('servers.adopted.convert')}
        </Button>
        <p className="text-xs text-muted-foreground">{t('servers.adopted.convertHint')}</p>
        <ConvertDialog
          proxyId={proxy.id}
          domain={proxy.domain}
          open={converting}
          onOpenChange={setConverting}
        />
      </CardContent>
    </Card>
  );
}
