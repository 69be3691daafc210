import { ShieldCheckIcon, ShieldOffIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { useSettingsTexts } from '@/lib/use-group-texts';
import {
  useDisableTwoFactor,
  useNewRecoveryCodes,
  useRefreshUser,
  useTwoFactorStatus,
} from '../api/account';
import { formatDate } from '../lib/format';
import { ReauthDialog } from './reauth-dialog';
import { RecoveryCodes } from './recovery-codes';
import type { TSettingsSectionProps } from './settings-section';
import { TwoFactorSetup } from './two-factor-setup';

/** Whether two-factor is on; set it up, turn it off, or get new recovery codes. */
export function TwoFactorSection({ user }: TSettingsSectionProps) {
  const { t, i18n } = useSettingsTexts();
  const status = useTwoFactorStatus();
  const disable = useDisableTwoFactor();
  const renew = useNewRecoveryCodes();
  const refreshUser = useRefreshUser();
  const [settingUp, setSettingUp] = React.useState(false);
  const [dialog, setDialog] = React.useState<'off' | 'codes' | null>(null);
  const [codes, setCodes] = React.useState<string[] | null>(null);

  if (status.isPending) return <Skeleton className="h-16 w-full" />;
  if (status.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{t('settings.loadFailed')}</AlertDescription>
      </Alert>
    );
  }
  const { enabled, enabledAt, recoveryCodesLeft, required } = status.data!;

  if (codes)
    return <RecoveryCodes codes={codes} username={user.username} onDone={() => setCodes(null)} />;
  if (settingUp) {
    return (
      <TwoFactorSetup
        username={user.username}
        onFinished={() => {
          setSettingUp(false);
          void refreshUser();
          toast({ title: t('settings.twoFactor.turnedOn') });
        }}
        onCancel={() => setSettingUp(false)}
      />
    );
  }

  return (
    <div className="grid gap-4" data-testid="two-factor-status">
      <div className="flex flex-wrap items-center gap-3">
        {enabled ? (
          <ShieldCheckIcon className="size-5 text-success" aria-hidden="true" />
        ) : (
          <ShieldOffIcon className="size-5 text-muted-foreground" aria-hidden="true" />
        )}
        <Badge variant={enabled ? 'default' : 'outline'} data-testid="two-factor-state">
          {enabled ? t('settings.twoFactor.on') : t('settings.twoFactor.off')}
        </Badge>
        {enabled && enabledAt ? (
          <span className="text-sm text-muted-foreground">
            {t('settings.twoFactor.since', { date: formatDate(enabledAt, i18n.language) })}
          </span>
        ) : null}
      </div>
      {enabled ? (
        <p className="text-sm text-muted-foreground" data-testid="recovery-codes-left">
          {t('settings.twoFactor.codesLeft', { count: recoveryCodesLeft })}
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">{t('settings.twoFactor.explain')}</p>
      )}
      {required ? (
        <p className="text-sm text-muted-foreground">{t('settings.twoFactor.required')}</p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {enabled ? (
          <>
            <Button
              type="button"
              variant="outline"
              onClick={() => setDialog('codes')}
              data-testid="two-factor-new-codes"
            >
              {t('settings.twoFactor.newCodes')}
            </Button>
            <Button
              type="button"
              variant="outline"
              onClick={() => setDialog('off')}
              data-testid="two-factor-off"
            >
              {t('settings.twoFactor.turnOff')}
            </Button>
          </>
        ) : (
          <Button type="button" onClick={() => setSettingUp(true)} data-testid="two-factor-set-up">
            {t('settings.twoFactor.setUp')}
          </Button>
        )}
      </div>
      <ReauthDialog
        open={dialog === 'off'}
        onOpenChange={(open) => setDialog(open ? 'off' : null)}
        title={t('settings.twoFactor.turnOffTitle')}
        description={t(
          required ? 'settings.twoFactor.turnOffRequired' : 'settings.twoFactor.turnOffDescription',
        )}
        submitLabel={t('settings.twoFactor.turnOff')}
        destructive
        testId="two-factor-off-dialog"
        send={async (input) => {
          await disable.mutateAsync(input);
          setDialog(null);
          toast({ title: t('settings.twoFactor.turnedOff') });
        }}
      />
      <ReauthDialog
        open={dialog === 'codes'}
        onOpenChange={(open) => setDialog(open ? 'codes' : null)}
        title={t('settings.twoFactor.newCodesTitle')}
        description={t('settings.twoFactor.newCodesDescription')}
        submitLabel={t('settings.twoFactor.newCodes')}
        testId="two-factor-codes-dialog"
        send={async (input) => {
          const result = await renew.mutateAsync(input);
          setDialog(null);
          setCodes(result.recoveryCodes);
        }}
      />
    </div>
  );
}
