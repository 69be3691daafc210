import { ChevronLeftIcon, ChevronRightIcon, SearchIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import type { TListUrlControls } from '@/hooks/use-list-url-state';
import { useListTexts } from '@/lib/use-group-texts';
import { cn } from '@/lib/utils';

// The controls of a list in pages (docs/PRODUCT.md#lists-in-pages): a search sent to the server
// once typing pauses, filter chips with their counts, and the pager. Plain buttons and inputs,
// so the keyboard and screen readers work them as they are.

/** Typing pauses this long before the search is sent (and the address replaced). */
export const SEARCH_DEBOUNCE_MS = 300;

type TSearchProps = {
  id: string;
  value: string;
  onSearch: (q: string) => void;
  label: string;
  placeholder: string;
  testId?: string;
};

export function ListSearch({ id, value, onSearch, label, placeholder, testId }: TSearchProps) {
  const [typed, setTyped] = React.useState(value);
  const send = React.useRef(onSearch);
  send.current = onSearch;
  // The address changed under it (back button, a link): show that search.
  const shown = React.useRef(value);
  React.useEffect(() => {
    if (value.trim() !== shown.current.trim()) {
      shown.current = value;
      setTyped(value);
    }
  }, [value]);
  React.useEffect(() => {
    if (typed.trim() === shown.current.trim()) return;
    const timer = setTimeout(() => {
      shown.current = typed;
      send.current(typed);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  return (
    <div className="relative w-full min-w-0 sm:w-72">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <SearchIcon
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden="true"
      />
      <Input
        id={id}
        type="search"
        className="h-9 pl-9"
        value={typed}
        maxLength={200}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setTyped(event.target.value)}
        data-testid={testId}
      />
    </div>
  );
}

export type TChip = { value: string | undefined; label: string; count?: number };

type TChipsProps = {
  label: string;
  chips: TChip[];
  chosen: string | undefined;
  onChoose: (value: string | undefined) => void;
  testId: string;
};

/** One filter's choices; the chosen one is pressed, choosing it again clears the filter. */
export function FilterChips({ label, chips, chosen, onChoose, testId }: TChipsProps) {
  return (
    <fieldset className="flex min-w-0 flex-wrap items-center gap-1.5" data-testid={testId}>
      <legend className="sr-only">{label}</legend>
      {chips.map((chip) => {
        const pressed = chip.value === chosen;
        return (
          <Button
            key={chip.value ?? ''}
            type="button"
            size="sm"
            variant={pressed ? 'secondary' : 'outline'}
            className={cn('h-8 rounded-full px-3', pressed && 'ring-2 ring-ring/40')}
            aria-pressed={pressed}
            onClick={() => onChoose(pressed ? undefined : chip.value)}
            data-testid={`${testId}-${chip.value ?? 'all'}`}
          >
            {chip.label}
          </Button>
        );
      })}
    </fieldset>
  );
}

type TPagerProps = {
  /** The list's view in the address: its walk so far, and the steps forward and back. */
  list: Pick<TListUrlControls<string>, 'state' | 'next' | 'previous'>;
  /** The cursor after the page on screen; null on the last page. */
  nextCursor: string | null;
  /** Where focus goes after a page change: the list's heading, so the reader starts at the top. */
  focusAfter?: () => void;
};

/** Previous and next, and which page this is; nothing when the list fits one page. */
export function ListPager({ list, nextCursor, focusAfter }: TPagerProps) {
  const { t } = useListTexts();
  const page = list.state.trail.length + 1;
  const hasPrevious = page > 1;
  const onPrevious = list.previous;
  const onNext = list.next;
  if (!hasPrevious && !nextCursor) return null;
  return (
    <nav
      aria-label={t('lists.pages')}
      className="flex flex-wrap items-center justify-between gap-2"
      data-testid="list-pager"
    >
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={!hasPrevious}
        onClick={() => {
          onPrevious();
          focusAfter?.();
        }}
        data-testid="page-previous"
      >
        <ChevronLeftIcon aria-hidden="true" />
        {t('lists.previous')}
      </Button>
      <span className="text-sm text-muted-foreground" aria-live="polite" data-testid="page-number">
        {t('lists.page', { page })}
      </span>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={!nextCursor}
        onClick={() => {
          if (!nextCursor) return;
          onNext(nextCursor);
          focusAfter?.();
        }}
        data-testid="page-next"
      >
        {t('lists.next')}
        <ChevronRightIcon aria-hidden="true" />
      </Button>
    </nav>
  );
}
