import { zodResolver } from '@hookform/resolvers/zod';
import { type TPasswordChangeForm, ZPasswordChangeForm } from '@portico/shared/auth/account';
import { Controller, useForm } from 'react-hook-form';
import { Form } from '@/components/ui/form';
import { PasswordField } from '@/components/ui/password-field';
import { fieldErrorText } from '@/lib/form-errors';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { useChangePassword } from '../api/account';
import { useFormSubmit } from '../lib/use-form-submit';
import { RevokeTokensField } from './revoke-tokens-field';
import { SubmitButton } from './submit-button';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '', revokeTokens: true };

/**
 * A new password; every other session of the account ends and, unless unticked, every API token
 * is revoked (the server says how many of each).
 */
export function PasswordSection() {
  const { t } = useSettingsTexts();
  const change = useChangePassword();
  const form = useForm<TPasswordChangeForm>({
    resolver: zodResolver(ZPasswordChangeForm),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;
  const onSubmit = useFormSubmit({
    form,
    send: ({ currentPassword, newPassword, revokeTokens }) =>
      change.mutateAsync({ currentPassword, newPassword, revokeTokens }),
    fields: ['currentPassword', 'newPassword'],
    fieldByCode: { wrong_password: 'currentPassword' },
    done: (result) => ({
      title: t('settings.password.changed', { count: result.endedSessions }),
      description:
        result.revokedTokens > 0
          ? t('settings.tokens.revokedCount', { count: result.revokedTokens })
          : undefined,
    }),
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
      <Controller
        control={form.control}
        name="revokeTokens"
        render={({ field }) => (
          <RevokeTokensField
            id="password-revoke-tokens"
            checked={field.value}
            onCheckedChange={field.onChange}
          />
        )}
      />
      <div>
        <SubmitButton pending={change.isPending} data-testid="password-save">
          {t('settings.password.submit')}
        </SubmitButton>
      </div>
    </Form>
  );
}
