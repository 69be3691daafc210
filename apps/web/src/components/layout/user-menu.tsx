import { ServerIcon, SettingsIcon } from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

/**
 * The signed-in user's menu (the saved servers and the account's settings live behind it):
 * loaded by the header when first asked for, and shown open from there on that first time.
 */
export function UserMenu({ trigger }: { trigger: React.ReactElement }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => navigate('/servers')} data-testid="menu-servers">
          <ServerIcon aria-hidden="true" />
          {t('header.servers')}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate('/settings')} data-testid="menu-settings">
          <SettingsIcon aria-hidden="true" />
          {t('header.settings')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
