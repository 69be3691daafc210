import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { useSettingsTexts } from '@/lib/use-group-texts';

/**
 * "Also revoke my API tokens", ticked unless untouched otherwise: asked where a new password or
 * second factor ends the other sessions, since a token taken meanwhile would outlive them.
 */
export function RevokeTokensField({
  id,
  checked,
  onCheckedChange,
}: {
  id: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  const { t } = useSettingsTexts();
  return (
    <div className="grid gap-1">
      <div className="flex items-center gap-2">
        <Checkbox
          id={id}
          checked={checked}
          onCheckedChange={(value) => onCheckedChange(value === true)}
          aria-describedby={`${id}-hint`}
          data-testid={id}
        />
        <Label htmlFor={id}>{t('settings.tokens.revokeAll')}</Label>
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {t('settings.tokens.revokeAllHint')}
      </p>
    </div>
  );
}
