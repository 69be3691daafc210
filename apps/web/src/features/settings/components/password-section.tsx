import { zodResolver } from '@hookform/resolvers/zod';
import { type TPasswordChangeForm, ZPasswordChangeForm } from '@portico/shared/auth/account';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Form } from '@/components/ui/form';
import { PasswordField } from '@/components/ui/password-field';
import { fieldErrorText } from '@/lib/form-errors';
import { useChangePassword } from '../api/account';
import { useFormSubmit } from '../lib/use-form-submit';
import { SubmitButton } from './submit-button';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** A new password; every other session of the account ends (the server says how many). */
export function PasswordSection() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const form = useForm<TPasswordChangeForm>({
    resolver: zodResolver(ZPasswordChangeForm),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;
  const onSubmit = useFormSubmit({
    form,
    send: ({ currentPassword, newPassword }) =>
      change.mutateAsync({ currentPassword, newPassword }),
    fields: ['currentPassword', 'newPassword'],
    fieldByCode: { wrong_password: 'currentPassword' },
    done: (result) => t('settings.password.changed', { count: result.endedSessions }),
    failed: t('settings.password.failed'),
    onDone: () => form.reset(EMPTY),
  });
  return (
    <Form onSubmit={onSubmit} aria-label={t('settings.password.title')}>
      <PasswordField
        id="password-current"
        label={t('settings.currentPassword')}
        error={fieldErrorText(errors.currentPassword, t)}
        autoComplete="current-password"
        register={form.register}
        name="currentPassword"
      />
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <PasswordField
          id="password-new"
          label={t('settings.password.new')}
          hint={t('validation.password.hint')}
          error={fieldErrorText(errors.newPassword, t)}
          autoComplete="new-password"
          register={form.register}
          name="newPassword"
        />
        <PasswordField
          id="password-confirm"
          label={t('settings.password.confirm')}
          error={fieldErrorText(errors.confirmPassword, t)}
          autoComplete="new-password"
          register={form.register}
          name="confirmPassword"
        />
      </div>
      <div>
        <SubmitButton pending={change.isPending} data-testid="password-save">
          {t('settings.password.submit')}
        </SubmitButton>
      </div>
    </Form>
  );
}
