import { zodResolver } from '@hookform/resolvers/zod';
import { type TLoginInput, ZLoginInput } from '@portico/shared/auth/schemas';
import { LogInIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { applyServerIssues, errorDescription, fieldErrorText } from '@/lib/form-errors';
import { useLogin } from '../api/login';

const FIELDS = ['identifier', 'password'] as const;

export function LoginForm() {
  const { t } = useTranslation();
  const loginMutation = useLogin();
  const form = useForm<TLoginInput>({
    resolver: zodResolver(ZLoginInput),
    mode: 'onTouched',
    defaultValues: { identifier: '', password: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await loginMutation.mutateAsync(values);
      toast({
        title: t('landing.login.success'),
        description: t('landing.login.successDescription'),
      });
    } catch (error) {
      applyServerIssues(error, form.setError, FIELDS);
      toast({
        variant: 'destructive',
        title: t('landing.login.failed'),
        description: errorDescription(error, t, t('landing.login.failed')),
      });
    }
  });

  const pending = loginMutation.isPending;
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid gap-4"
      aria-label={t('landing.tabs.login')}
    >
      <Field
        id="login-identifier"
        label={t('landing.login.identifier')}
        error={fieldErrorText(errors.identifier, t)}
      >
        {(aria) => (
          <Input
            {...aria}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder={t('landing.login.identifierPlaceholder')}
            {...form.register('identifier')}
          />
        )}
      </Field>
      <Field
        id="login-password"
        label={t('landing.login.password')}
        error={fieldErrorText(errors.password, t)}
      >
        {(aria) => (
          <PasswordInput {...aria} autoComplete="current-password" {...form.register('password')} />
        )}
      </Field>
      <Button type="submit" className="mt-2 w-full" disabled={pending}>
        {pending ? <Spinner className="text-current" /> : <LogInIcon aria-hidden="true" />}
        {pending ? t('landing.login.submitting') : t('landing.login.submit')}
      </Button>
    </form>
  );
}
