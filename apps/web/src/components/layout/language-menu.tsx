import type { TLanguage } from '@portico/shared/i18n/language';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

/**
 * The language menu (Radix, with its positioning and focus code): loaded by LanguageSwitcher
 * when first asked for, and shown open from there on that first time.
 */
export function LanguageMenu({
  trigger,
  current,
  languages,
}: {
  trigger: React.ReactElement;
  current: TLanguage;
  languages: readonly TLanguage[];
}) {
  const { t, i18n } = useTranslation();
  return (
    // Non-modal: the page stays in the accessibility tree while the short menu is open.
    <DropdownMenu modal={false} defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-[9rem]">
        <DropdownMenuLabel>{t('common.changeLanguage')}</DropdownMenuLabel>
        <DropdownMenuRadioGroup
          value={current}
          onValueChange={(lng) => {
            void i18n.changeLanguage(lng);
          }}
        >
          {languages.map((lng) => (
            <DropdownMenuRadioItem key={lng} value={lng} lang={lng}>
              {t(`common.languages.${lng}`)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
