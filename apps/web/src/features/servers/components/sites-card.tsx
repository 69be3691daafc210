import {
  SITE_CLASSES,
  type TScannedSite,
  type TSiteClass,
  type TSiteScan,
} from '@portico/shared/ssh-servers/site-scan';
import { ScanSearchIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { toast } from '@/hooks/use-toast';
import { toastFailure } from '@/lib/toast-outcome';
import { useServersTexts } from '@/lib/use-group-texts';
import { useAdoptSites, useScanSites } from '../api/ssh-servers';

/**
 * "Sites on this server" (docs/PRODUCT.md#sites-on-this-server): a read-only scan of the
 * server's nginx sites, filtered by class, with "Adopt" per adoptable site and for several.
 * Everything shown came from the server: rendered as text only.
 */
export function SitesCard({ serverId }: { serverId: string }) {
  const { t } = useServersTexts();
  const scan = useScanSites();
  const adopt = useAdoptSites();
  const [result, setResult] = React.useState<TSiteScan | null>(null);
  const [filter, setFilter] = React.useState<TSiteClass | 'all'>('all');
  const [chosen, setChosen] = React.useState<Set<string>>(new Set());

  const run = async () => {
    try {
      setResult(await scan.mutateAsync(serverId));
      setChosen(new Set());
    } catch (error) {
      toastFailure(error, t, t('servers.sites.scanFailed'));
    }
  };
  const adoptNames = async (serverNames: string[]) => {
    try {
      const answer = await adopt.mutateAsync({ id: serverId, serverNames });
      toast({ title: t('servers.sites.adopted', { count: answer.adopted.length }) });
      setFilter('all');
      await run();
    } catch (error) {
      toastFailure(error, t, t('servers.sites.adoptFailed'));
    }
  };

  const sites = result?.sites ?? [];
  const shown = filter === 'all' ? sites : sites.filter((s) => s.class === filter);
  const busy = scan.isPending || adopt.isPending;
  return (
    <Card data-testid="server-sites">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>{t('servers.sites.title')}</CardTitle>
        <div className="flex flex-wrap gap-2">
          {chosen.size > 0 ? (
            <Button
              size="sm"
              onClick={() => void adoptNames([...chosen])}
              disabled={busy}
              data-testid="sites-adopt-selected"
            >
              {t('servers.sites.adoptSelected', { count: chosen.size })}
            </Button>
          ) : null}
          <BusyButton
            busy={scan.isPending}
            icon={<ScanSearchIcon aria-hidden="true" />}
            size="sm"
            onClick={() => void run()}
            disabled={busy}
            data-testid="sites-scan"
          >
            {t('servers.sites.scan')}
          </BusyButton>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!result ? (
          <p className="text-sm text-muted-foreground">{t('servers.sites.intro')}</p>
        ) : (
          <>
            {!result.nginxTest.ok ? (
              <Alert variant="destructive" data-testid="sites-nginx-broken">
                <AlertDescription>
                  <p>{t('servers.sites.nginxBroken')}</p>
                  <pre className="mt-2 max-h-40 overflow-auto text-xs whitespace-pre-wrap break-all">
                    {result.nginxTest.output}
                  </pre>
                </AlertDescription>
              </Alert>
            ) : null}
            <fieldset className="flex flex-wrap gap-2" aria-label={t('servers.sites.filter')}>
              {(['all', ...SITE_CLASSES] as const).map((c) => {
                const count =
                  c === 'all' ? sites.length : sites.filter((s) => s.class === c).length;
                if (c !== 'all' && count === 0) return null;
                return (
                  <Button
                    key={c}
                    size="sm"
                    variant={filter === c ? 'default' : 'outline'}
                    aria-pressed={filter === c}
                    onClick={() => setFilter(c)}
                    data-testid={`sites-filter-${c}`}
                  >
                    {t(`servers.sites.class.${c}`)} ({count})
                  </Button>
                );
              })}
            </fieldset>
            {shown.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('servers.sites.none')}</p>
            ) : (
              <ul className="grid gap-2" data-testid="sites-list">
                {shown.map((site) => (
                  <SiteRow
                    key={site.serverName}
                    site={site}
                    chosen={chosen.has(site.serverName)}
                    onChosen={(on) =>
                      setChosen((prev) => {
                        const next = new Set(prev);
                        if (on) next.add(site.serverName);
                        else next.delete(site.serverName);
                        return next;
                      })
                    }
                    onAdopt={() => void adoptNames([site.serverName])}
                    busy={busy}
                  />
                ))}
              </ul>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function SiteRow(props: {
  site: TScannedSite;
  chosen: boolean;
  onChosen: (on: boolean) => void;
  onAdopt: () => void;
  busy: boolean;
}) {
  const { t } = useServersTexts();
  const { site } = props;
  const adoptable = site.class === 'adoptable';
  const checkboxId = `site-${site.serverName}`;
  const what = site.target ?? site.proxyPass[0] ?? site.root ?? site.redirect;
  return (
    <li
      className="flex flex-wrap items-start gap-3 rounded-md border p-3"
      data-testid="site-row"
      data-class={site.class}
    >
      {adoptable ? (
        <Checkbox
          id={checkboxId}
          checked={props.chosen}
          onCheckedChange={(v) => props.onChosen(v === true)}
          aria-label={t('servers.sites.choose', { name: site.serverName })}
          className="mt-1"
        />
      ) : null}
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all">{site.serverName}</span>
          <Badge
            variant={
              site.class === 'broken' || site.class === 'conflict' ? 'destructive' : 'secondary'
            }
          >
            {t(`servers.sites.class.${site.class}`)}
          </Badge>
          {site.tls ? <Badge variant="outline">HTTPS</Badge> : null}
          {site.changedSinceAdoption ? (
            <Badge variant="destructive">{t('servers.sites.changedByHand')}</Badge>
          ) : null}
        </div>
        <p className="text-xs text-muted-foreground break-all">
          {site.file} · {t(`servers.sites.reason.${site.reason}`)}
          {what ? ` · ${what}` : ''}
          {site.certificateExpiresAt
            ? ` · ${t('servers.sites.expires', { date: site.certificateExpiresAt.slice(0, 10) })}`
            : ''}
        </p>
      </div>
      {adoptable ? (
        <Button
          size="sm"
          variant="outline"
          className="w-full sm:w-auto"
          onClick={props.onAdopt}
          disabled={props.busy}
          data-testid="site-adopt"
        >
          {t('servers.sites.adopt')}
        </Button>
      ) : null}
    </li>
  );
}
