import { fireEvent, render, screen } from '@testing-library/react';
import { SaveIcon } from 'lucide-react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BusyButton } from './busy-button';

function saveButton(busy: boolean, onClick = () => {}) {
  return (
    <BusyButton
      busy={busy}
      icon={<SaveIcon data-testid="icon" aria-hidden="true" />}
      busyLabel="Saving…"
      onClick={onClick}
    >
      Save
    </BusyButton>
  );
}

describe('BusyButton', () => {
  afterEach(() => vi.restoreAllMocks());

  it('idle: its icon and label, pressable, not busy', () => {
    const onClick = vi.fn();
    render(saveButton(false, onClick));
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByTestId('icon')).not.toBeNull();
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('busy: a spinner in the icon’s place, the busy label, aria-busy, and no second press', () => {
    const onClick = vi.fn();
    render(saveButton(true, onClick));
    const button = screen.getByRole('button', { name: 'Saving…' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId('icon')).toBeNull();
    expect(button.querySelector('svg.animate-spin')).not.toBeNull();
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('keeps the label when no busy label is given, and stays disabled when told to', () => {
    const { rerender } = render(
      <BusyButton busy={false} disabled>
        Load more
      </BusyButton>,
    );
    expect((screen.getByRole('button', { name: 'Load more' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    rerender(<BusyButton busy>Load more</BusyButton>);
    expect((screen.getByRole('button', { name: 'Load more' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('stays focusable while busy when marked unavailable (its reason is in a tooltip)', () => {
    render(
      <BusyButton busy aria-disabled>
        Redeploy
      </BusyButton>,
    );
    const button = screen.getByRole('button', { name: 'Redeploy' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-busy')).toBe('true');
  });

  it('is never narrower while busy than it was idle', () => {
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(132);
    const { rerender } = render(saveButton(false));
    const button = screen.getByRole('button');
    expect(button.style.minWidth).toBe('');
    rerender(saveButton(true));
    expect(button.style.minWidth).toBe('132px');
    rerender(saveButton(false));
    expect(button.style.minWidth).toBe('');
  });

  it('hands its element to a ref as well as measuring it (a Radix trigger needs it)', () => {
    const ref = { current: null as HTMLButtonElement | null };
    render(
      <BusyButton busy={false} ref={ref}>
        Go
      </BusyButton>,
    );
    expect(ref.current).toBe(screen.getByRole('button', { name: 'Go' }));
  });
});
