import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { authorizeKeyCommand } from '@/lib/authorized-key';
import { useServersTexts } from '@/lib/use-group-texts';
import { CopyValue } from './copy-value';

/**
 * The public half of a key Portico generated: the `authorized_keys` line and the one command
 * that adds it (docs/PRODUCT.md#ssh-servers). Shown after saving and on the server's page.
 */
export function GeneratedKey({ server }: { server: Pick<TSshServer, 'publicKey' | 'username'> }) {
  const { t } = useServersTexts();
  if (!server.publicKey) return null;
  const command = authorizeKeyCommand(server.publicKey);
  return (
    <Alert variant="success" data-testid="generated-key">
      <AlertTitle>{t('servers.generated.title')}</AlertTitle>
      <AlertDescription className="grid min-w-0 gap-3">
        <p>{t('servers.generated.description')}</p>
        <CopyValue
          label={t('servers.generated.publicKey')}
          value={server.publicKey}
          testId="public-key"
        />
        {command ? (
          <CopyValue
            label={t('servers.generated.command', { user: server.username })}
            value={command}
            testId="authorize-command"
          />
        ) : null}
      </AlertDescription>
    </Alert>
  );
}
