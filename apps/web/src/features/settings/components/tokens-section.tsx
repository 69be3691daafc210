import type { TApiToken, TCreatedToken } from '@portico/shared/auth/account';
import * as React from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { toastFailure } from '@/lib/toast-outcome';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { useRevokeToken, useTokens } from '../api/account';
import { formatDate } from '../lib/format';
import { CreateTokenForm } from './create-token-form';
import { CreatedToken } from './created-token';
import type { TSettingsSectionProps } from './settings-section';
import { SubmitButton } from './submit-button';

function TokenRow({ token, onRevoke }: { token: TApiToken; onRevoke: () => void }) {
  const { t, i18n } = useSettingsTexts();
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-border p-4"
      data-testid="token-row"
    >
      <div className="grid min-w-0 gap-1 text-sm">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all" data-testid="token-name">
            {token.name}
          </span>
          <Badge variant="outline">{t(`settings.tokens.scopes.${token.scope}`)}</Badge>
          {expired ? <Badge variant="destructive">{t('settings.tokens.expired')}</Badge> : null}
        </div>
        <code className="font-mono text-xs text-muted-foreground">{token.hint}…</code>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-muted-foreground">
          <dt>{t('settings.tokens.created')}</dt>
          <dd>{formatDate(token.createdAt, i18n.language)}</dd>
          <dt>{t('settings.tokens.lastUsed')}</dt>
          <dd data-testid="token-last-used">
            {token.lastUsedAt
              ? formatDate(token.lastUsedAt, i18n.language)
              : t('settings.tokens.never')}
          </dd>
          <dt>{t('settings.tokens.expires')}</dt>
          <dd>
            {token.expiresAt
              ? formatDate(token.expiresAt, i18n.language)
              : t('settings.tokens.noExpiry')}
          </dd>
        </dl>
      </div>
      <Button
        type="button"
        size="sm"
        variant="outline"
        onClick={onRevoke}
        data-testid="token-revoke"
      >
        {t('settings.tokens.revoke')}
        <span className="sr-only"> {token.name}</span>
      </Button>
    </li>
  );
}

/**
 * Personal API tokens: create one (shown once), see when each was used, revoke. The new token
 * is shown only while it exists: revoked here, or gone from the list read after (a new password
 * revoked it), its box goes too.
 */
export function TokensSection({ user }: TSettingsSectionProps) {
  const { t } = useSettingsTexts();
  const tokens = useTokens();
  const revoke = useRevokeToken();
  const [target, setTarget] = React.useState<TApiToken | null>(null);
  const [created, setCreated] = React.useState<TCreatedToken | null>(null);
  const gone =
    created !== null &&
    tokens.data != null &&
    !tokens.isFetching &&
    !tokens.data.some((token) => token.id === created.id);
  const shown = gone ? null : created;

  const confirmRevoke = async () => {
    if (!target) return;
    try {
      await revoke.mutateAsync(target.id);
      toast({ title: t('settings.tokens.revoked', { name: target.name }) });
      if (created?.id === target.id) setCreated(null);
      setTarget(null);
    } catch (error) {
      toastFailure(error, t, t('settings.tokens.revokeFailed'));
    }
  };

  return (
    <div className="grid gap-6">
      {shown ? (
        <CreatedToken created={shown} onDone={() => setCreated(null)} />
      ) : (
        <CreateTokenForm codeAllowed={user.twoFactorEnabled} onCreated={setCreated} />
      )}
      {tokens.isPending ? <Skeleton className="h-24 w-full" /> : null}
      {tokens.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{t('settings.loadFailed')}</AlertDescription>
        </Alert>
      ) : null}
      {tokens.data?.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('settings.tokens.empty')}</p>
      ) : null}
      {tokens.data && tokens.data.length > 0 ? (
        <ul className="grid gap-3" aria-label={t('settings.tokens.listLabel')}>
          {tokens.data.map((token) => (
            <TokenRow key={token.id} token={token} onRevoke={() => setTarget(token)} />
          ))}
        </ul>
      ) : null}
      <AlertDialog
        open={target !== null}
        onOpenChange={(open) => !open && !revoke.isPending && setTarget(null)}
      >
        <AlertDialogContent data-testid="token-revoke-dialog">
          <AlertDialogHeader>
            <AlertDialogTitle>{t('settings.tokens.revokeTitle')}</AlertDialogTitle>
            <AlertDialogDescription>
              {t('settings.tokens.revokeConfirm', { name: target?.name ?? '' })}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={revoke.isPending}>
              {t('settings.cancel')}
            </AlertDialogCancel>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void confirmRevoke();
              }}
            >
              <SubmitButton
                pending={revoke.isPending}
                variant="destructive"
                data-testid="token-revoke-confirm"
              >
                {t('settings.tokens.revoke')}
              </SubmitButton>
            </form>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
