import type { TSshServer, TSshServerList } from '@portico/shared/ssh-servers/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRoundIcon } from 'lucide-react';
import * as React from 'react';
import { ServerFormDialog } from '@/components/server-form/server-form-dialog';
import { Button } from '@/components/ui/button';
import { useServersTexts } from '@/lib/use-group-texts';
import { savedServerKeys } from '../api/saved-servers';

/**
 * A new server that takes a key, not a password: the servers page's own dialog, opened with the
 * address, port and user typed so far and "Generate a key" chosen (a pasted key is one choice
 * away). The saved server joins the wizard's list and is chosen, so the wizard goes on with it.
 */
export function NewServerKeyOption({
  typed,
  onSaved,
}: {
  typed: { serverIp?: string; sshUser?: string; sshPort?: string };
  onSaved: (server: TSshServer) => void;
}) {
  const { t } = useServersTexts();
  const client = useQueryClient();
  const [open, setOpen] = React.useState(false);
  const [saved, setSaved] = React.useState<TSshServer | null>(null);
  const host = (typed.serverIp ?? '').trim();
  const username = (typed.sshUser ?? '').trim() || 'root';
  const initial = {
    name: host ? `${username}@${host}` : '',
    host,
    port: typed.sshPort || '22',
    username,
    login: 'generate' as const,
  };
  const close = (next: boolean) => {
    setOpen(next);
    // Chosen once the dialog closes: a generated key's line stays on screen until then.
    if (!next && saved) onSaved(saved);
  };
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-dashed border-border px-3 py-2 text-sm">
      <span className="text-muted-foreground">{t('servers.wizard.keyHint')}</span>
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => {
          setSaved(null);
          setOpen(true);
        }}
        data-testid="wizard-add-key-server"
      >
        <KeyRoundIcon aria-hidden="true" />
        {t('servers.wizard.keyAdd')}
      </Button>
      {/* React passes a portal's events up its own tree: the dialog's submit is not the step's. */}
      <div className="contents" onSubmit={(event) => event.stopPropagation()}>
        <ServerFormDialog
          server={null}
          open={open}
          onOpenChange={close}
          initial={initial}
          onSaved={(server) => {
            setSaved(server);
            client.setQueryData<TSshServerList>(savedServerKeys.list(), (list) =>
              list ? { ...list, servers: [server, ...list.servers] } : list,
            );
            void client.invalidateQueries({ queryKey: savedServerKeys.list() });
          }}
        />
      </div>
    </div>
  );
}
