import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { TriangleAlertIcon } from 'lucide-react';
import { Link } from 'wouter';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useServersTexts } from '@/lib/use-group-texts';
import { serverWarnings } from '../state/server-warnings';

/**
 * Under the chosen saved server: what its last check found that would make the deploy fail or
 * differ, with a link to its page to check again. A warning, never a block.
 */
export function ServerWarnings({ server }: { server: TSshServer }) {
  const { t } = useServersTexts();
  const warnings = serverWarnings(server);
  if (warnings.length === 0) return null;
  return (
    <Alert variant="warning" data-testid="wizard-server-warnings">
      <TriangleAlertIcon aria-hidden="true" />
      <AlertTitle>{t('servers.wizard.warn.title', { name: server.name })}</AlertTitle>
      <AlertDescription>
        <ul className="grid list-disc gap-1 pl-4">
          {warnings.map((w) => (
            <li key={`${w.key}-${w.params?.port ?? ''}`} data-testid="wizard-server-warning">
              {t(w.key, w.params)}
            </li>
          ))}
        </ul>
        <Link
          href={`/servers/${encodeURIComponent(server.id)}`}
          className="mt-1 inline-block font-medium underline underline-offset-4"
        >
          {t('servers.wizard.warn.open')}
        </Link>
      </AlertDescription>
    </Alert>
  );
}
