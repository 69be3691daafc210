import { isLanguage, type TLanguage } from '@portico/shared/i18n/language';
import { ChevronDownIcon, LanguagesIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useInertUntilHydrated } from '@/hooks/use-hydrated';
import { DeferredMenu } from './deferred-menu';

// English first, then Español.
const ORDER: readonly TLanguage[] = ['en', 'es'].filter(isLanguage);

const loadMenu = () => import('./language-menu');
const LanguageMenu = React.lazy(async () => ({ default: (await loadMenu()).LanguageMenu }));

function SwitcherButton({
  current,
  ...props
}: React.ComponentProps<typeof Button> & { current: TLanguage }) {
  const { t } = useTranslation();
  const inert = useInertUntilHydrated('gap-1.5 px-2 sm:px-3');
  return (
    <Button
      variant="ghost"
      size="sm"
      {...inert}
      data-testid="language-switcher"
      aria-haspopup="menu"
      aria-expanded={false}
      {...props}
    >
      <LanguagesIcon aria-hidden="true" />
      <span className="sr-only">{t('common.language')}: </span>
      <span className="hidden sm:inline">{t(`common.languages.${current}`)}</span>
      <span className="uppercase sm:hidden">{current}</span>
      <ChevronDownIcon className="opacity-60" aria-hidden="true" />
    </Button>
  );
}

/**
 * Changes the language at once; i18n caches the choice in local storage. The menu's code comes
 * on demand (DeferredMenu): the landing page does not download it.
 */
export function LanguageSwitcher() {
  const { i18n } = useTranslation();
  const current = (i18n.resolvedLanguage ?? i18n.language) as TLanguage;
  return (
    <DeferredMenu
      load={loadMenu}
      renderButton={(props) => <SwitcherButton current={current} {...props} />}
      renderMenu={(trigger) => (
        <LanguageMenu trigger={trigger} current={current} languages={ORDER} />
      )}
    />
  );
}
