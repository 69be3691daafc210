import type { TLoginTwoFactorInput } from '@portico/shared/auth/account';
import { ShieldCheckIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Form } from '@/components/ui/form';
import { CodeInput } from '@/components/ui/input';
import { fieldErrorText } from '@/lib/form-errors';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useLoginTwoFactor } from '../api/login';
import { AuthSubmitButton, useAuthSubmit } from './auth-form-parts';

const resolver = lazyResolver(
  async () => (await import('../lib/form-resolvers')).loginTwoFactorResolver,
);

/**
 * The second step of signing in when two-factor is on: a code from the authenticator app, or
 * one of the recovery codes. `onBack` starts over with the password.
 */
export function TwoFactorLoginForm({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const step = useLoginTwoFactor();
  const form = useForm<TLoginTwoFactorInput>({
    resolver,
    mode: 'onSubmit',
    defaultValues: { code: '' },
  });
  const onSubmit = useAuthSubmit({
    form,
    prefix: 'landing.login',
    send: (values) => step.mutateAsync(values),
    fields: ['code'],
    fieldByCode: { two_factor_invalid: 'code' },
    fieldOnly: true,
  });
  return (
    <Form
      onSubmit={onSubmit}
      aria-label={t('landing.twoFactor.title')}
      data-testid="two-factor-login"
    >
      <p className="text-sm text-muted-foreground">{t('landing.twoFactor.description')}</p>
      <Field
        id="login-code"
        label={t('landing.twoFactor.code')}
        hint={t('landing.twoFactor.hint')}
        error={fieldErrorText(form.formState.errors.code, t)}
      >
        {(aria) => (
          <CodeInput
            {...aria}
            // The one field of this step, shown when asked for: the cursor belongs there.
            autoFocus
            inputMode="text"
            autoComplete="one-time-code"
            className="font-mono tracking-wider"
            {...form.register('code')}
          />
        )}
      </Field>
      <AuthSubmitButton pending={step.isPending} prefix="landing.login" icon={ShieldCheckIcon} />
      <Button type="button" variant="link" onClick={onBack} className="justify-self-center">
        {t('landing.twoFactor.back')}
      </Button>
    </Form>
  );
}
