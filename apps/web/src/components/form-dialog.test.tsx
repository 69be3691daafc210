import { fireEvent, render, screen } from '@testing-library/react';
import type { TFunction } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { stubResizeObserver } from '@/test/resize-observer';
import { FormDialog, FormDialogFooter, showSaveFailure } from './form-dialog';

vi.mock('@/lib/toast-outcome', () => ({ toastFailure: vi.fn() }));
const { toastFailure } = await import('@/lib/toast-outcome');

stubResizeObserver();

function dialog(pending: boolean, onOpenChange = vi.fn(), onCancel = vi.fn()) {
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      pending={pending}
      title="Add a server"
      description="How Portico logs in"
      testId="the-dialog"
    >
      <form id="the-form" />
      <FormDialogFooter
        formId="the-form"
        pending={pending}
        onCancel={onCancel}
        cancelLabel="Cancel"
        saveLabel="Save"
        saveTestId="the-save"
      />
    </FormDialog>
  );
}

describe('FormDialog and its footer', () => {
  it('idle: Save submits the named form, Cancel cancels, Escape closes', () => {
    const onOpenChange = vi.fn();
    const onCancel = vi.fn();
    render(dialog(false, onOpenChange, onCancel));
    expect(screen.getByRole('dialog', { name: 'Add a server' })).toBeTruthy();
    const save = screen.getByTestId('the-save') as HTMLButtonElement;
    expect(save.getAttribute('form')).toBe('the-form');
    expect(save.type).toBe('submit');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('while saving: Save busy, neither button pressable, the dialog does not close', () => {
    const onOpenChange = vi.fn();
    render(dialog(true, onOpenChange));
    const save = screen.getByTestId('the-save') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(save.getAttribute('aria-busy')).toBe('true');
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});

describe('showSaveFailure', () => {
  afterEach(() => vi.mocked(toastFailure).mockClear());
  const t = ((key: string) => key) as unknown as TFunction;
  const refused = new ApiError(400, '400: Bad Request', {
    statusCode: 400,
    code: 'name_taken',
    message: 'That name is taken',
    text: { key: 'errors.nameTaken', params: {} },
    issues: [{ path: 'host', message: 'Not a host' }],
  } as never);

  it('puts the issues and a code naming a field on their fields', () => {
    const setError = vi.fn();
    showSaveFailure<{ name: string; host: string }>(
      refused,
      { setError },
      {
        fields: ['name', 'host'],
        fieldByCode: { name_taken: 'name' },
        t,
        title: 'Not saved',
        toastWhenPlaced: false,
      },
    );
    expect(setError.mock.calls.map(([field, error]) => [field, error.message])).toEqual([
      ['name', 'That name is taken'],
      ['host', 'Not a host'],
    ]);
    expect(toastFailure).not.toHaveBeenCalled();
  });

  it('toasts when no field took the refusal, or always when asked', () => {
    const fields = { fields: ['name'] as const, t, title: 'Not saved' };
    showSaveFailure(
      new TypeError('fetch failed'),
      { setError: vi.fn() },
      {
        ...fields,
        toastWhenPlaced: false,
      },
    );
    expect(toastFailure).toHaveBeenCalledTimes(1);
    showSaveFailure(
      refused,
      { setError: vi.fn() },
      {
        ...fields,
        fieldByCode: { name_taken: 'name' },
        toastWhenPlaced: true,
      },
    );
    expect(toastFailure).toHaveBeenCalledTimes(2);
    expect(vi.mocked(toastFailure).mock.calls[1]?.[2]).toBe('Not saved');
  });
});
