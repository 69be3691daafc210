import { describe, expect, it } from 'vitest';
import { reducer, TOAST_LIMIT, type TToast } from './use-toast';

const make = (id: string): TToast => ({ id, title: id, open: true });

describe('toast store', () => {
  it('keeps at most one toast: the newest replaces the one shown', () => {
    expect(TOAST_LIMIT).toBe(1);
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: make('a') });
    state = reducer(state, { type: 'ADD_TOAST', toast: make('b') });
    expect(state.toasts.map((t) => t.id)).toEqual(['b']);
  });

  it('goes through added, updated, dismissed, removed', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: make('a') });
    state = reducer(state, { type: 'UPDATE_TOAST', toast: { id: 'a', title: 'changed' } });
    expect(state.toasts[0]?.title).toBe('changed');
    state = reducer(state, { type: 'DISMISS_TOAST', toastId: 'a' });
    expect(state.toasts[0]?.open).toBe(false);
    state = reducer(state, { type: 'REMOVE_TOAST', toastId: 'a' });
    expect(state.toasts).toEqual([]);
  });
});
