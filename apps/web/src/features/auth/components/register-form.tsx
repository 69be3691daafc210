import { zodResolver } from '@hookform/resolvers/zod';
import { type TRegisterForm, ZRegisterForm } from '@portico/shared/auth/schemas';
import { UserPlusIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { applyServerIssues, errorDescription, fieldErrorText } from '@/lib/form-errors';
import { useRegister } from '../api/register';

const FIELDS = ['username', 'email', 'password', 'confirmPassword'] as const;
const FIELD_BY_CODE = { username_taken: 'username', email_taken: 'email' } as const;

export function RegisterForm() {
  const { t } = useTranslation();
  const registerMutation = useRegister();
  const form = useForm<TRegisterForm>({
    resolver: zodResolver(ZRegisterForm),
    mode: 'onTouched',
    defaultValues: { username: '', email: '', password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ username, email, password }) => {
    try {
      await registerMutation.mutateAsync({ username, email, password });
      toast({
        title: t('landing.register.success'),
        description: t('landing.register.successDescription'),
      });
    } catch (error) {
      applyServerIssues(error, form.setError, FIELDS, FIELD_BY_CODE);
      toast({
        variant: 'destructive',
        title: t('landing.register.failed'),
        description: errorDescription(error, t, t('landing.register.failed')),
      });
    }
  });

  const pending = registerMutation.isPending;
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid gap-4"
      aria-label={t('landing.tabs.register')}
    >
      <Field
        id="register-username"
        label={t('landing.register.username')}
        error={fieldErrorText(errors.username, t)}
      >
        {(aria) => (
          <Input
            {...aria}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
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
      <Field
        id="register-password"
        label={t('landing.register.password')}
        hint={t('validation.password.hint')}
        error={fieldErrorText(errors.password, t)}
      >
        {(aria) => (
          <PasswordInput {...aria} autoComplete="new-password" {...form.register('password')} />
        )}
      </Field>
      <Field
        id="register-confirm-password"
        label={t('landing.register.confirmPassword')}
        error={fieldErrorText(errors.confirmPassword, t)}
      >
        {(aria) => (
          <PasswordInput
            {...aria}
            autoComplete="new-password"
            {...form.register('confirmPassword')}
          />
        )}
      </Field>
      <Button type="submit" className="mt-2 w-full" disabled={pending}>
        {pending ? <Spinner className="text-current" /> : <UserPlusIcon aria-hidden="true" />}
        {pending ? t('landing.register.submitting') : t('landing.register.submit')}
      </Button>
    </form>
  );
}
