import {
  ArrowLeftRightIcon,
  BellIcon,
  KeyRoundIcon,
  type LucideIcon,
  MonitorSmartphoneIcon,
  ShieldCheckIcon,
  TerminalSquareIcon,
  UserIcon,
} from 'lucide-react';
import * as React from 'react';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { NotificationsSection } from './notifications-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { SessionsSection } from './sessions-section';
import { SettingsSection, type TSettingsSectionProps } from './settings-section';
import { TokensSection } from './tokens-section';
import { TransferSection } from './transfer-section';
import { TwoFactorSection } from './two-factor-section';

/**
 * The sections of the settings page, in order. A new one (e.g. notifications) is one entry
 * here, one component and its texts under settings.<id>: the page, its menu and anchors follow.
 */
const SETTINGS_SECTIONS: {
  id: string;
  icon: LucideIcon;
  Component: React.ComponentType<TSettingsSectionProps>;
}[] = [
  { id: 'profile', icon: UserIcon, Component: ProfileSection },
  { id: 'password', icon: KeyRoundIcon, Component: PasswordSection },
  { id: 'two-factor', icon: ShieldCheckIcon, Component: TwoFactorSection },
  { id: 'tokens', icon: TerminalSquareIcon, Component: TokensSection },
  { id: 'sessions', icon: MonitorSmartphoneIcon, Component: SessionsSection },
  { id: 'notifications', icon: BellIcon, Component: NotificationsSection },
  { id: 'transfer', icon: ArrowLeftRightIcon, Component: TransferSection },
];

/** /settings: one's own account, a menu of its sections beside (or above, on a phone) them. */
export function SettingsPage({ user }: TSettingsSectionProps) {
  const { t } = useSettingsTexts();
  // The header's menu links to /settings#<section>: scroll there once the page is drawn.
  React.useEffect(() => {
    const id = window.location.hash.slice(1);
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);

  return (
    <div
      className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-8 sm:px-6"
      data-testid="settings-page"
    >
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{t('settings.title')}</h1>
        <p className="mt-1 text-muted-foreground">{t('settings.description')}</p>
      </div>
      <div className="grid items-start gap-6 md:grid-cols-[12rem_minmax(0,1fr)]">
        <nav aria-label={t('settings.sectionsLabel')} className="md:sticky md:top-20">
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {SETTINGS_SECTIONS.map(({ id, icon: Icon }) => (
              <li key={id}>
                <a
                  href={`#${id}`}
                  className="flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <Icon className="size-4" aria-hidden="true" />
                  {t(`settings.${id}.nav`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="grid min-w-0 gap-6">
          {SETTINGS_SECTIONS.map(({ id, Component }) => (
            <SettingsSection
              key={id}
              id={id}
              title={t(`settings.${id}.title`)}
              description={t(`settings.${id}.description`)}
            >
              <Component user={user} />
            </SettingsSection>
          ))}
        </div>
      </div>
    </div>
  );
}
