import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { Link } from 'wouter';
import { ListPager } from '@/components/list-controls';
import { ProxyListFilters, proxyListShape } from '@/components/proxy-list-filters';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useListUrlState } from '@/hooks/use-list-url-state';
import { pageQuery } from '@/lib/list-url-state';
import { statusLabelKey } from '@/lib/proxy-status';
import { useServersTexts } from '@/lib/use-group-texts';
import { SERVER_PROXY_PAGE_SIZE, useServerProxyPage } from '../api/ssh-servers';

const SHAPE = proxyListShape();

/**
 * The proxies on this server (their `sshServerId`) a page at a time, searched and filtered on
 * the server as home's list is, the view in the address; an admin looking at another account's
 * server reads them from the list of all.
 */
export function ServerProxiesCard({ server, own }: { server: TSshServer; own: boolean }) {
  const { t } = useServersTexts();
  const list = useListUrlState(SHAPE);
  const { state } = list;
  const query = pageQuery(state, SERVER_PROXY_PAGE_SIZE);
  const page = useServerProxyPage(server.id, query, own ? 'own' : 'admin');
  const data = page.data;
  const narrowed = state.q.trim() !== '' || Object.keys(state.filters).length > 0;
  const none = data !== undefined && data.total === 0 && !narrowed && state.trail.length === 0;
  const toHeading = () => document.getElementById('server-proxies-heading')?.focus();

  return (
    <Card>
      <CardHeader>
        <CardTitle id="server-proxies-heading" tabIndex={-1}>
          {t('servers.page.proxies')}
          {data && !none ? (
            <span
              className="ml-2 font-normal text-muted-foreground"
              data-testid="server-proxy-total"
            >
              ({data.total})
            </span>
          ) : null}
        </CardTitle>
        {!own ? (
          <p className="text-sm text-muted-foreground" data-testid="server-proxies-owner">
            {t('servers.page.othersProxies', { count: server.proxyCount, owner: server.owner })}
          </p>
        ) : null}
      </CardHeader>
      <CardContent className="grid min-w-0 gap-3">
        {data && !none ? (
          <ProxyListFilters
            list={list}
            counts={data.counts}
            searchLabel={t('servers.page.proxiesSearch')}
            testIdPrefix="server-"
          />
        ) : null}
        {!data && page.isPending ? (
          <Spinner />
        ) : !data ? (
          <p className="text-sm text-destructive" data-testid="server-proxies-error">
            {t('servers.page.proxiesError')}
          </p>
        ) : none ? (
          <p className="text-sm text-muted-foreground" data-testid="server-no-proxies">
            {t('servers.page.noProxies')}
          </p>
        ) : data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="server-proxies-no-match">
            {t('servers.page.proxiesNoMatch')}
          </p>
        ) : (
          <ul className="grid gap-1" data-testid="server-proxies">
            {data.items.map((proxy) => (
              <li key={proxy.id} className="flex min-w-0 flex-wrap items-baseline gap-x-2">
                <Link
                  href={`/proxy-details/${encodeURIComponent(proxy.id)}`}
                  className="min-w-0 text-sm font-medium break-all text-primary underline-offset-4 hover:underline"
                >
                  {proxy.domain}
                </Link>
                <span className="text-xs text-muted-foreground">
                  {t(statusLabelKey(proxy.status))}
                </span>
              </li>
            ))}
          </ul>
        )}
        {data ? (
          <ListPager list={list} nextCursor={data.nextCursor} focusAfter={toHeading} />
        ) : null}
      </CardContent>
    </Card>
  );
}
