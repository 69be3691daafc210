import type { TRegisterForm } from '@portico/shared/auth/schemas';
import { UserPlusIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Form } from '@/components/ui/form';
import { CodeInput, Input } from '@/components/ui/input';
import { PasswordField } from '@/components/ui/password-field';
import { fieldErrorText } from '@/lib/form-errors';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useRegister } from '../api/register';
import { AuthSubmitButton, useAuthSubmit } from './auth-form-parts';

const FIELDS = ['username', 'email', 'password', 'confirmPassword'] as const;
const FIELD_BY_CODE = { username_taken: 'username', email_taken: 'email' } as const;

const resolver = lazyResolver(async () => (await import('../lib/form-resolvers')).registerResolver);

export function RegisterForm() {
  const { t } = useTranslation();
  const registerMutation = useRegister();
  const form = useForm<TRegisterForm>({
    resolver,
    mode: 'onTouched',
    defaultValues: { username: '', email: '', password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = useAuthSubmit({
    form,
    prefix: 'landing.register',
    send: ({ username, email, password }) =>
      registerMutation.mutateAsync({ username, email, password }),
    fields: FIELDS,
    fieldByCode: FIELD_BY_CODE,
  });

  const pending = registerMutation.isPending;
  return (
    <Form onSubmit={onSubmit} aria-label={t('landing.tabs.register')}>
      <Field
        id="register-username"
        label={t('landing.register.username')}
        error={fieldErrorText(errors.username, t)}
      >
        {(aria) => (
          <CodeInput
            {...aria}
            autoComplete="username"
            placeholder={t('landing.register.usernamePlaceholder')}
            {...form.register('username')}
          />
        )}
      </Field>
      <Field
        id="register-email"
        label={t('landing.register.email')}
        error={fieldErrorText(errors.email, t)}
      >
        {(aria) => (
          <Input
            {...aria}
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder={t('landing.register.emailPlaceholder')}
            {...form.register('email')}
          />
        )}
      </Field>
      <PasswordField
        id="register-password"
        label={t('landing.register.password')}
        hint={t('validation.password.hint')}
        error={fieldErrorText(errors.password, t)}
        autoComplete="new-password"
        register={form.register}
        name="password"
      />
      <PasswordField
        id="register-confirm-password"
        label={t('landing.register.confirmPassword')}
        error={fieldErrorText(errors.confirmPassword, t)}
        autoComplete="new-password"
        register={form.register}
        name="confirmPassword"
      />
      <AuthSubmitButton pending={pending} prefix="landing.register" icon={UserPlusIcon} />
    </Form>
  );
}
