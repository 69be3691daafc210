import { Checkbox } from './checkbox';
import { Label } from './label';

/** A checkbox with its label and the hint that says what it does. */
export function Choice({
  id,
  checked,
  onChange,
  disabled,
  label,
  hint,
}: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled: boolean;
  label: string;
  hint: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={id}
        checked={checked}
        onCheckedChange={(value) => onChange(value === true)}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        className="mt-0.5"
        data-testid={id}
      />
      <div className="grid min-w-0 gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
          {hint}
        </p>
      </div>
    </div>
  );
}
