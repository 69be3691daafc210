import { SUPPORTED_LANGUAGES, type TLanguage } from '@portico/shared/api-error';
import { ChevronDownIcon, LanguagesIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

// English first, as the spec lists the switcher's options.
const ORDER: readonly TLanguage[] = ['en', 'es'].filter((l): l is TLanguage =>
  (SUPPORTED_LANGUAGES as readonly string[]).includes(l),
);

/** Changes the language at once; i18n caches the choice in local storage. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = (i18n.resolvedLanguage ?? i18n.language) as TLanguage;
  return (
    // Non-modal: the page stays in the accessibility tree while the short menu is open.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="gap-1.5 px-2 sm:px-3"
          data-testid="language-switcher"
        >
          <LanguagesIcon aria-hidden="true" />
          <span className="sr-only">{t('common.language')}: </span>
          <span className="hidden sm:inline">{t(`common.languages.${current}`)}</span>
          <span className="uppercase sm:hidden">{current}</span>
          <ChevronDownIcon className="opacity-60" aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-[9rem]">
        <DropdownMenuLabel>{t('common.changeLanguage')}</DropdownMenuLabel>
        <DropdownMenuRadioGroup
          value={current}
          onValueChange={(lng) => {
            void i18n.changeLanguage(lng);
          }}
        >
          {ORDER.map((lng) => (
            <DropdownMenuRadioItem key={lng} value={lng} lang={lng}>
              {t(`common.languages.${lng}`)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
