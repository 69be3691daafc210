import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { KeyRoundIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useUser } from '@/lib/current-user';
import { continueHref } from '../lib/status';

/**
 * No SSH password is saved for where the proxy points (the server clears it when the address,
 * port or user changes): says so, and takes the owner to where it is entered. An admin looking
 * at someone else's proxy is told that only the owner can.
 */
export function PasswordNeeded({ proxy }: { proxy: TProxyConfiguration }) {
  const { t } = useTranslation();
  const { data: user } = useUser();
  const owner = user?.id === proxy.userId;
  return (
    <Alert variant="warning" data-testid="password-needed">
      <KeyRoundIcon aria-hidden="true" />
      <AlertDescription className="grid gap-2">
        <p>{owner ? t('proxies.passwordNeeded.text') : t('proxies.passwordNeeded.textAdmin')}</p>
        {owner ? (
          <Button asChild size="sm" variant="outline" className="justify-self-start">
            <Link href={continueHref(proxy.id)} data-testid="password-needed-enter">
              {t('proxies.passwordNeeded.action')}
            </Link>
          </Button>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}
