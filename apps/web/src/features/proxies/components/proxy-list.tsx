import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { LayoutGridIcon, RefreshCwIcon, SearchXIcon, ServerIcon, TableIcon } from 'lucide-react';
import * as React from 'react';
import { ListPager } from '@/components/list-controls';
import { ProxyListFilters, proxyListShape } from '@/components/proxy-list-filters';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { useListUrlState } from '@/hooks/use-list-url-state';
import { useMediaQuery } from '@/hooks/use-media-query';
import { errorDescription } from '@/lib/form-errors';
import { pageQuery } from '@/lib/list-url-state';
import { useListTexts } from '@/lib/use-group-texts';
import { useCertificateSummaries } from '../api/certificate';
import { PROXY_PAGE_SIZE, useProxyPage } from '../api/get-proxies';
import type { TProxySort } from '../lib/sort';
import { EditProxyDialog } from './edit-proxy-dialog';
import { ProxyCard } from './proxy-card';
import { ProxyTable } from './proxy-table';

type TView = 'cards' | 'table';
const VIEW_STORAGE_KEY = 'portico.proxyView';
/**
 * The table needs about 850 px (six columns, the actions among them); below this width the list
 * is always cards, whose actions wrap inside the card, and the choice is not offered.
 */
export const TABLE_MIN_WIDTH_QUERY = '(min-width: 1024px)';
const SHAPE = proxyListShape();

function stored<T extends string>(key: string, other: T, fallback: T): T {
  try {
    return localStorage.getItem(key) === other ? other : fallback;
  } catch {
    return fallback;
  }
}

function remember(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // A private window may refuse storage; the choice then lasts for this page only.
  }
}

/**
 * The signed-in user's proxies as cards or a table, a page at a time, searched and filtered on
 * the server; the view lives in the address (docs/PRODUCT.md#home).
 */
export function ProxyList() {
  const { t } = useListTexts();
  const list = useListUrlState(SHAPE);
  const { state } = list;
  const query = React.useMemo(() => pageQuery(state, PROXY_PAGE_SIZE), [state]);
  const { data, error, isPending, isError, refetch, isFetching } = useProxyPage(query);
  const pageIds = React.useMemo(
    () => data?.items.filter((p) => p.sslConfigured).map((p) => p.id),
    [data],
  );
  const certificates = useCertificateSummaries(pageIds).data;
  const [chosen, setView] = React.useState<TView>(() =>
    stored<TView>(VIEW_STORAGE_KEY, 'table', 'cards'),
  );
  const tableFits = useMediaQuery(TABLE_MIN_WIDTH_QUERY);
  const view: TView = tableFits ? chosen : 'cards';
  const sort = (state.sort ?? 'created') as TProxySort;
  const [editing, setEditing] = React.useState<TProxyConfiguration | null>(null);
  const shown = data?.items ?? [];
  const narrowed = state.q.trim() !== '' || Object.keys(state.filters).length > 0;
  // Nothing at all, not merely nothing matching: the list has no controls to offer.
  const none = data !== undefined && data.total === 0 && !narrowed && state.trail.length === 0;

  const chooseView = (next: TView) => {
    setView(next);
    remember(VIEW_STORAGE_KEY, next);
  };
  const toHeading = () => document.getElementById('proxies-heading')?.focus();

  return (
    <section aria-labelledby="proxies-heading" className="grid min-w-0 gap-4" id="proxies">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="proxies-heading" tabIndex={-1} className="text-xl font-semibold tracking-tight">
          {t('proxies.list.title')}
          {data ? (
            <span
              className="ml-2 text-base font-normal text-muted-foreground"
              data-testid="proxy-total"
            >
              ({narrowed ? t('lists.found', { count: data.total }) : data.total})
            </span>
          ) : null}
        </h2>
        {/* Sorting and views are for a list: none while there is nothing to show. */}
        {data && !none ? (
          <div className="flex w-full min-w-0 flex-wrap items-center gap-2 sm:w-auto">
            {/* Full width on a phone: the select's longest option must not widen the page. */}
            <label
              htmlFor="proxy-sort"
              className="flex w-full min-w-0 items-center gap-2 text-sm text-muted-foreground sm:w-auto"
            >
              {t('proxies.list.sort')}
              <NativeSelect
                id="proxy-sort"
                className="h-9 min-w-0 flex-1 sm:w-auto sm:flex-none"
                value={sort}
                onChange={(event) => list.sortBy(event.target.value)}
                data-testid="proxy-sort"
              >
                <option value="created">{t('proxies.list.sortCreated')}</option>
                <option value="expiry">{t('proxies.list.sortExpiry')}</option>
              </NativeSelect>
            </label>
            {tableFits ? (
              <fieldset
                className="inline-flex rounded-md border border-border p-0.5"
                aria-label={t('proxies.list.view')}
              >
                <Button
                  size="sm"
                  variant={view === 'cards' ? 'secondary' : 'ghost'}
                  aria-pressed={view === 'cards'}
                  onClick={() => chooseView('cards')}
                  data-testid="view-cards"
                >
                  <LayoutGridIcon aria-hidden="true" />
                  {t('proxies.list.cards')}
                </Button>
                <Button
                  size="sm"
                  variant={view === 'table' ? 'secondary' : 'ghost'}
                  aria-pressed={view === 'table'}
                  onClick={() => chooseView('table')}
                  data-testid="view-table"
                >
                  <TableIcon aria-hidden="true" />
                  {t('proxies.list.table')}
                </Button>
              </fieldset>
            ) : null}
          </div>
        ) : null}
      </div>

      {data && !none ? (
        <ProxyListFilters
          list={list}
          counts={data.counts}
          searchLabel={t('lists.proxies.searchLabel')}
        />
      ) : null}

      {isPending ? (
        <div
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
          role="status"
          aria-label={t('common.loading')}
          data-testid="proxy-list-loading"
        >
          {[0, 1, 2].map((n) => (
            <Card key={n} className="grid gap-3 p-5">
              <Skeleton className="h-5 w-2/3" />
              <Skeleton className="h-4 w-1/2" />
              <Skeleton className="h-4 w-3/4" />
              <Skeleton className="h-8 w-1/3" />
            </Card>
          ))}
        </div>
      ) : isError ? (
        <Alert variant="destructive" data-testid="proxy-list-error">
          <AlertTitle>{t('proxies.list.loadError')}</AlertTitle>
          <AlertDescription>
            <p data-testid="proxy-list-error-reason">{errorDescription(error, t)}</p>
            <Button
              size="sm"
              variant="outline"
              className="mt-2"
              onClick={() => void refetch()}
              disabled={isFetching}
            >
              <RefreshCwIcon aria-hidden="true" />
              {t('proxies.list.retry')}
            </Button>
          </AlertDescription>
        </Alert>
      ) : none ? (
        <EmptyState
          icon={ServerIcon}
          title={t('proxies.list.emptyTitle')}
          description={t('proxies.list.emptyDescription')}
          testId="proxy-list-empty"
        />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={SearchXIcon}
          title={t('lists.proxies.noMatchTitle')}
          description={t('lists.proxies.noMatchDescription')}
          testId="proxy-list-no-match"
        />
      ) : view === 'table' ? (
        <Card className="min-w-0 p-1 sm:p-2">
          <ProxyTable proxies={shown} certificates={certificates} onEdit={setEditing} />
        </Card>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="proxy-cards">
          {shown.map((proxy) => (
            <li key={proxy.id} className="flex min-w-0">
              <ProxyCard
                proxy={proxy}
                certificate={certificates?.get(proxy.id)}
                onEdit={setEditing}
              />
            </li>
          ))}
        </ul>
      )}

      {data ? <ListPager list={list} nextCursor={data.nextCursor} focusAfter={toHeading} /> : null}

      {editing ? (
        <EditProxyDialog
          proxy={editing}
          open
          onOpenChange={(open) => {
            if (!open) setEditing(null);
          }}
        />
      ) : null}
    </section>
  );
}
