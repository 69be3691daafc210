import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { PencilIcon, RefreshCwIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Link, useLocation } from 'wouter';
import { GeneratedKey } from '@/components/server-form/generated-key';
import { ServerFormDialog } from '@/components/server-form/server-form-dialog';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { useLogText } from '@/lib/log-text';
import { toastFailure } from '@/lib/toast-outcome';
import { useServersTexts } from '@/lib/use-group-texts';
import { useCheckSshServer, useSshServer } from '../api/ssh-servers';
import { SERVERS_HREF } from '../lib/paths';
import { DeleteServerDialog } from './delete-server-dialog';
import { HostKeyCard } from './host-key-card';
import { ServerActionsCard } from './server-actions-card';
import { ServerFacts } from './server-facts';
import { ServerProxiesCard } from './server-proxies-card';
import { ServerStatus } from './server-status';
import { SitesCard } from './sites-card';

/**
 * One saved server (docs/PRODUCT.md#ssh-servers): where it is and how Portico logs in, its facts
 * with "Check now", the pinned host key with "Forget key", its proxies, and the actions on all
 * of them with what each did to every proxy.
 */
export function ServerPage({ id, userId }: { id: string; userId: string }) {
  const { t } = useServersTexts();
  const server = useSshServer(id);
  const [, navigate] = useLocation();
  const [editing, setEditing] = React.useState(false);
  const [deleting, setDeleting] = React.useState(false);

  if (server.isPending) {
    return (
      <div className="mx-auto grid w-full max-w-4xl gap-4 px-4 py-8 sm:px-6">
        <Skeleton className="h-10" />
        <Skeleton className="h-40" />
      </div>
    );
  }
  if (server.isError) {
    return (
      <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6">
        <Alert variant="destructive" data-testid="server-not-found">
          <AlertDescription>{t('servers.page.notFound')}</AlertDescription>
        </Alert>
      </div>
    );
  }
  const s = server.data;
  return (
    <div
      className="mx-auto grid w-full max-w-4xl gap-6 px-4 py-8 sm:px-6"
      data-testid="server-page"
    >
      <div className="grid gap-3">
        <Link href={SERVERS_HREF} className="text-sm text-muted-foreground hover:underline">
          ← {t('servers.page.back')}
        </Link>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid min-w-0 gap-1">
            <h1 className="text-2xl font-bold tracking-tight break-all">{s.name}</h1>
            <p
              className="font-mono text-sm break-all text-muted-foreground"
              data-testid="server-target"
            >
              {s.username}@{s.host}:{s.port}
            </p>
            <p className="text-sm text-muted-foreground">
              {t('servers.page.login')}: {t(`servers.auth.${s.authKind}`)}
              {s.hasSudoPassword ? ` · ${t('servers.page.sudoSaved')}` : ''}
              {s.userId !== userId ? ` · ${s.owner}` : ''}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() => setEditing(true)}
              data-testid="server-edit"
            >
              <PencilIcon aria-hidden="true" />
              {t('servers.edit')}
            </Button>
            <Button
              variant="outline"
              size="sm"
              onClick={() => setDeleting(true)}
              data-testid="server-delete"
            >
              <Trash2Icon aria-hidden="true" />
              {t('servers.delete')}
            </Button>
          </div>
        </div>
      </div>

      <GeneratedKey server={s} />
      <FactsCard server={s} />
      <HostKeyCard server={s} />
      <ServerProxiesCard server={s} own={s.userId === userId} />
      <SitesCard serverId={s.id} />
      <ServerActionsCard server={s} />

      <ServerFormDialog server={s} open={editing} onOpenChange={setEditing} />
      <DeleteServerDialog
        server={s}
        open={deleting}
        onOpenChange={setDeleting}
        onDeleted={() => navigate(SERVERS_HREF)}
      />
    </div>
  );
}

function FactsCard({ server }: { server: TSshServer }) {
  const { t } = useServersTexts();
  const check = useCheckSshServer();
  const words = useLogText();
  const [failure, setFailure] = React.useState<string | null>(null);
  const run = async () => {
    setFailure(null);
    try {
      const answer = await check.mutateAsync(server.id);
      if (answer.text) setFailure(words.text(answer.text));
      else toast({ title: t('servers.page.checked'), description: server.name });
    } catch (error) {
      toastFailure(error, t, t('servers.page.checkFailed'));
    }
  };
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>{t('servers.page.facts')}</CardTitle>
        <div className="flex flex-wrap items-center gap-3">
          <ServerStatus server={server} />
          <BusyButton
            busy={check.isPending}
            icon={<RefreshCwIcon aria-hidden="true" />}
            size="sm"
            onClick={() => void run()}
            data-testid="server-check"
          >
            {t('servers.page.checkNow')}
          </BusyButton>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {failure ? (
          <Alert variant="destructive" data-testid="server-check-failure">
            <AlertDescription>{failure}</AlertDescription>
          </Alert>
        ) : null}
        {server.facts ? (
          <ServerFacts facts={server.facts} />
        ) : (
          <p className="text-sm text-muted-foreground" data-testid="server-no-facts">
            {t('servers.page.noFacts')}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
