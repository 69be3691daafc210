import { CheckIcon, ChevronsUpDownIcon, XIcon } from 'lucide-react';
import { Popover as PopoverPrimitive } from 'radix-ui';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { useAdminTexts } from '@/lib/use-group-texts';
import { cn } from '@/lib/utils';

export interface TPickerOption {
  value: string;
  label: string;
}

/** What the server found for the text typed so far: a few options, never a whole list. */
export interface TPickerResults {
  options: TPickerOption[] | undefined;
  loading: boolean;
  failed: boolean;
}

interface TSearchPickerProps {
  id: string;
  label: string;
  /** The first choice, which clears the filter. */
  allLabel: string;
  placeholder: string;
  /** The chosen value ('' for all) and what to show for it. */
  value: string;
  valueLabel: string | undefined;
  onChange: (value: string) => void;
  /** Asks the server as the admin types; runs only while the list is open. */
  useResults: (q: string) => TPickerResults;
}

/** Typing waits this long before the server is asked again. */
const SEARCH_DELAY_MS = 250;

function useDebounced(value: string): string {
  const [settled, setSettled] = React.useState(value);
  React.useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/** The open list: a search box and the options the server answered, walked with the arrows. */
function PickerList({
  id,
  allLabel,
  placeholder,
  value,
  onPick,
  useResults,
}: Pick<TSearchPickerProps, 'id' | 'allLabel' | 'placeholder' | 'value' | 'useResults'> & {
  onPick: (value: string) => void;
}) {
  const { t } = useAdminTexts();
  const [text, setText] = React.useState('');
  const q = useDebounced(text.trim());
  const results = useResults(q);
  const options: TPickerOption[] = [{ value: '', label: allLabel }, ...(results.options ?? [])];
  const [active, setActive] = React.useState(0);
  // A new search: the walk starts again at the top.
  const [searched, setSearched] = React.useState(q);
  if (searched !== q) {
    setSearched(q);
    setActive(0);
  }
  const listId = `${id}-options`;
  const optionId = (index: number) => `${id}-option-${index}`;

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => Math.min(i + 1, options.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const option = options[active];
      if (option) onPick(option.value);
    }
  };
  React.useEffect(() => {
    document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  });

  return (
    <div className="grid gap-2">
      <Input
        autoFocus
        role="combobox"
        aria-expanded
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={optionId(active)}
        aria-label={placeholder}
        placeholder={placeholder}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        data-testid={`${id}-search`}
      />
      <div id={listId} role="listbox" aria-label={placeholder} className="max-h-64 overflow-y-auto">
        {options.map((option, index) => (
          // The combobox input holds the focus and takes the keys (aria-activedescendant).
          // biome-ignore lint/a11y/useKeyWithClickEvents: the input above handles the keyboard.
          <div
            key={option.value || 'all'}
            id={optionId(index)}
            role="option"
            tabIndex={-1}
            aria-selected={option.value === value}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm [overflow-wrap:anywhere]',
              index === active && 'bg-accent text-accent-foreground',
            )}
            onMouseEnter={() => setActive(index)}
            onClick={() => onPick(option.value)}
          >
            <CheckIcon
              aria-hidden
              className={cn('size-4 shrink-0', option.value !== value && 'invisible')}
            />
            {option.label}
          </div>
        ))}
      </div>
      {results.loading ? (
        <p className="flex items-center gap-2 px-2 text-sm text-muted-foreground">
          <Spinner className="size-4" /> {t('admin.audit.searching')}
        </p>
      ) : results.failed ? (
        <p className="px-2 text-sm text-destructive" role="alert">
          {t('admin.audit.searchFailed')}
        </p>
      ) : results.options?.length === 0 ? (
        <p className="px-2 text-sm text-muted-foreground">{t('admin.audit.noMatches')}</p>
      ) : null}
    </div>
  );
}

/**
 * A filter chosen from a list the server searches as the admin types (a handful of rows at a
 * time), so a screen never holds thousands of options; "all" clears it.
 */
export function SearchPicker(props: TSearchPickerProps) {
  const { t } = useAdminTexts();
  const { id, label, allLabel, value, valueLabel, onChange } = props;
  const [open, setOpen] = React.useState(false);
  const pick = (next: string) => {
    setOpen(false);
    if (next !== value) onChange(next);
  };
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-1">
        <PopoverPrimitive.Root open={open} onOpenChange={setOpen}>
          <PopoverPrimitive.Trigger asChild>
            <Button
              id={id}
              type="button"
              variant="outline"
              aria-haspopup="listbox"
              className="min-w-0 flex-1 justify-between font-normal"
              data-testid={`${id}-picker`}
            >
              <span className="truncate">{value ? (valueLabel ?? value) : allLabel}</span>
              <ChevronsUpDownIcon aria-hidden className="size-4 shrink-0 opacity-50" />
            </Button>
          </PopoverPrimitive.Trigger>
          <PopoverPrimitive.Portal>
            {/* Radix gives the popover the dialog role: it is named after the filter it sets. */}
            <PopoverPrimitive.Content
              aria-label={label}
              align="start"
              sideOffset={4}
              className="z-50 w-[var(--radix-popover-trigger-width)] min-w-64 max-w-[calc(100vw-2rem)] rounded-md border bg-popover p-2 text-popover-foreground shadow-md"
            >
              <PickerList {...props} onPick={pick} />
            </PopoverPrimitive.Content>
          </PopoverPrimitive.Portal>
        </PopoverPrimitive.Root>
        {value ? (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={t('admin.audit.clearFilter', { filter: label })}
            onClick={() => onChange('')}
            data-testid={`${id}-clear`}
          >
            <XIcon aria-hidden className="size-4" />
          </Button>
        ) : null}
      </div>
    </div>
  );
}
