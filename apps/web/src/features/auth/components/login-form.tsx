import type { TLoginInput } from '@portico/shared/auth/schemas';
import { LogInIcon } from 'lucide-react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Form } from '@/components/ui/form';
import { CodeInput } from '@/components/ui/input';
import { PasswordField } from '@/components/ui/password-field';
import { useHydrated } from '@/hooks/use-hydrated';
import { fieldErrorText } from '@/lib/form-errors';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useLogin } from '../api/login';
import { AuthSubmitButton, useAuthSubmit } from './auth-form-parts';
import { TwoFactorLoginForm } from './two-factor-login-form';

const FIELDS = ['identifier', 'password'] as const;

const resolver = lazyResolver(async () => (await import('../lib/form-resolvers')).loginResolver);

/** The password; when the account has two-factor on, then the code (a second form). */
export function LoginForm() {
  const [needsCode, setNeedsCode] = React.useState(false);
  if (needsCode) return <TwoFactorLoginForm onBack={() => setNeedsCode(false)} />;
  return <PasswordStep onNeedsCode={() => setNeedsCode(true)} />;
}

function PasswordStep({ onNeedsCode }: { onNeedsCode: () => void }) {
  const { t } = useTranslation();
  const loginMutation = useLogin();
  const form = useForm<TLoginInput>({
    resolver,
    mode: 'onTouched',
    defaultValues: { identifier: '', password: '' },
  });
  const { errors } = form.formState;

  const onSubmit = useAuthSubmit({
    form,
    prefix: 'landing.login',
    send: (values) => loginMutation.mutateAsync(values),
    fields: FIELDS,
    // Right password, and a code is needed: no "welcome" yet, the code form instead.
    succeeded: (result) => {
      if ('twoFactorRequired' in result) {
        onNeedsCode();
        return false;
      }
      return true;
    },
  });

  const pending = loginMutation.isPending;
  // Read-only on the prerendered page until React holds the form: react-hook-form sets each
  // field to its default when it attaches, which would wipe what was typed before.
  const readOnly = !useHydrated();
  return (
    <Form onSubmit={onSubmit} aria-label={t('landing.tabs.login')}>
      <Field
        id="login-identifier"
        label={t('landing.login.identifier')}
        error={fieldErrorText(errors.identifier, t)}
      >
        {(aria) => (
          <CodeInput
            {...aria}
            autoComplete="username"
            placeholder={t('landing.login.identifierPlaceholder')}
            readOnly={readOnly}
            {...form.register('identifier')}
          />
        )}
      </Field>
      <PasswordField
        id="login-password"
        label={t('landing.login.password')}
        error={fieldErrorText(errors.password, t)}
        autoComplete="current-password"
        readOnly={readOnly}
        register={form.register}
        name="password"
      />
      <AuthSubmitButton pending={pending} prefix="landing.login" icon={LogInIcon} />
    </Form>
  );
}
