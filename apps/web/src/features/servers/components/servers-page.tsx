import { maskHost } from '@portico/shared/masking';
import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { PencilIcon, PlusIcon, ServerIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Link } from 'wouter';
import { ServerFormDialog } from '@/components/server-form/server-form-dialog';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { TableOrCards, type TColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { useServersTexts } from '@/lib/use-group-texts';
import { useSshServers } from '@/lib/use-ssh-servers';
import { serverHref } from '../lib/paths';
import { DeleteServerDialog } from './delete-server-dialog';
import { ServerStatus } from './server-status';

/**
 * The saved servers (docs/PRODUCT.md#ssh-servers): the user's, or for an admin everyone's with
 * the owner. Hosts are masked as in the proxy list (the list is what ends up in screenshots);
 * the server's page shows it whole.
 */
export function ServersPage({ admin = false }: { admin?: boolean }) {
  const { t } = useServersTexts();
  const servers = useSshServers();
  const [editing, setEditing] = React.useState<TSshServer | null>(null);
  const [formOpen, setFormOpen] = React.useState(false);
  const [deleting, setDeleting] = React.useState<TSshServer | null>(null);
  const rows = servers.data?.pages.flatMap((page) => page.servers) ?? [];

  const openForm = (server: TSshServer | null) => {
    setEditing(server);
    setFormOpen(true);
  };

  const actions = (server: TSshServer) => (
    <div className="flex flex-wrap gap-2">
      <Button variant="outline" size="sm" asChild>
        <Link href={serverHref(server.id)} data-testid="server-details">
          {t('servers.details')}
        </Link>
      </Button>
      <Button
        variant="outline"
        size="sm"
        onClick={() => openForm(server)}
        aria-label={`${t('servers.edit')}: ${server.name}`}
        data-testid="server-edit"
      >
        <PencilIcon aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">{t('servers.edit')}</span>
      </Button>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setDeleting(server)}
        aria-label={`${t('servers.delete')}: ${server.name}`}
        data-testid="server-delete"
      >
        <Trash2Icon aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">{t('servers.delete')}</span>
      </Button>
    </div>
  );

  const columns: TColumn<TSshServer>[] = [
    {
      key: 'name',
      header: t('servers.columns.name'),
      cell: (s) => <span className="font-medium break-all">{s.name}</span>,
    },
    ...(admin
      ? [{ key: 'owner', header: t('servers.columns.owner'), cell: (s: TSshServer) => s.owner }]
      : []),
    {
      key: 'host',
      header: t('servers.columns.host'),
      cell: (s) => <span className="font-mono text-xs">{maskHost(s.host)}</span>,
    },
    { key: 'user', header: t('servers.columns.user'), cell: (s) => s.username },
    {
      key: 'auth',
      header: t('servers.columns.auth'),
      cell: (s) => t(`servers.auth.${s.authKind}`),
    },
    {
      key: 'status',
      header: t('servers.columns.status'),
      cell: (s) => <ServerStatus server={s} />,
    },
    {
      key: 'proxies',
      header: t('servers.columns.proxies'),
      cell: (s) => t('servers.proxyCount', { count: s.proxyCount }),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('servers.columns.actions')}</span>,
      cell: actions,
    },
  ];

  const card = (s: TSshServer) => (
    <div className="grid gap-2 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium break-all">{s.name}</span>
        <ServerStatus server={s} />
      </div>
      <p className="text-muted-foreground">
        <span className="font-mono text-xs">
          {s.username}@{maskHost(s.host)}
        </span>
        {' · '}
        {t(`servers.auth.${s.authKind}`)}
        {' · '}
        {t('servers.proxyCount', { count: s.proxyCount })}
        {admin ? ` · ${s.owner}` : ''}
      </p>
      {actions(s)}
    </div>
  );

  return (
    <div
      className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-8 sm:px-6"
      data-testid="servers-page"
    >
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-bold tracking-tight">{t('servers.title')}</h1>
          <p className="text-muted-foreground">
            {t(admin ? 'servers.allSubtitle' : 'servers.subtitle')}
          </p>
        </div>
        <Button onClick={() => openForm(null)} data-testid="server-add">
          <PlusIcon aria-hidden="true" />
          {t('servers.add')}
        </Button>
      </div>

      {servers.isPending ? (
        <div className="grid gap-3">
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
        </div>
      ) : servers.isError ? (
        <Alert variant="destructive" data-testid="servers-error">
          <AlertDescription>{t('servers.loadFailed')}</AlertDescription>
        </Alert>
      ) : rows.length === 0 ? (
        <EmptyState
          icon={ServerIcon}
          heading="h2"
          title={t('servers.empty.title')}
          description={t('servers.empty.description')}
          testId="servers-empty"
        />
      ) : (
        <TableOrCards
          columns={columns}
          rows={rows}
          rowKey={(s) => s.id}
          rowAttributes={(s) => ({ 'data-testid': 'server-row', 'data-name': s.name })}
          testId="servers-table"
          card={card}
          cardAttributes={(s) => ({ 'data-testid': 'server-card', 'data-name': s.name })}
          cardsTestId="servers-cards"
        />
      )}
      {servers.hasNextPage ? (
        <div>
          <BusyButton
            busy={servers.isFetchingNextPage}
            variant="outline"
            onClick={() => void servers.fetchNextPage()}
            data-testid="servers-more"
          >
            {t('servers.loadMore')}
          </BusyButton>
        </div>
      ) : null}

      <ServerFormDialog server={editing} open={formOpen} onOpenChange={setFormOpen} />
      {deleting ? (
        <DeleteServerDialog
          server={deleting}
          open
          onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        />
      ) : null}
    </div>
  );
}
