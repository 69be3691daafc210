import type { TPublicUser } from '@portico/shared/auth/schemas';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { useRefreshUser } from '../api/account';
import { SettingsSection } from './settings-section';
import { TwoFactorSetup } from './two-factor-setup';

/**
 * What an account held by PORTICO_REQUIRE_2FA sees, on every address, until two-factor is on:
 * the server refuses everything else for it anyway. Finishing reloads the account, and the
 * app opens as usual.
 */
export function TwoFactorRequiredPage({ user }: { user: TPublicUser }) {
  const { t } = useSettingsTexts();
  const refreshUser = useRefreshUser();
  return (
    <div
      className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6"
      data-testid="two-factor-required"
    >
      <Alert variant="warning">
        <AlertTitle>{t('settings.twoFactor.requiredTitle')}</AlertTitle>
        <AlertDescription>{t('settings.twoFactor.requiredDescription')}</AlertDescription>
      </Alert>
      <SettingsSection
        id="two-factor"
        title={t('settings.two-factor.title')}
        description={t('settings.two-factor.description')}
      >
        {/* Once the codes are kept, the account is read again and the app takes over. */}
        <TwoFactorSetup username={user.username} onFinished={() => void refreshUser()} />
      </SettingsSection>
    </div>
  );
}
