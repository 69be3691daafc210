import { zodResolver } from '@hookform/resolvers/zod';
import {
  type TCreatedToken,
  TOKEN_SCOPES,
  type TTokenSettings,
  ZTokenSettings,
} from '@portico/shared/auth/account';
import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { Form } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { fieldErrorText } from '@/lib/form-errors';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { useCreateToken } from '../api/account';
import { ReauthDialog } from './reauth-dialog';
import { SubmitButton } from './submit-button';

const EXPIRY_DAYS = [7, 30, 90, 365] as const;

/**
 * A new token's name, access and expiry; then the password or a code (a session alone does not
 * mint a token), asked in a dialog. `onCreated` gets the token, shown once.
 */
export function CreateTokenForm({
  codeAllowed,
  onCreated,
}: {
  /** Two-factor is on: a code may stand in for the password. */
  codeAllowed: boolean;
  onCreated: (created: TCreatedToken) => void;
}) {
  const { t } = useSettingsTexts();
  const create = useCreateToken();
  const [asking, setAsking] = React.useState<TTokenSettings | null>(null);
  const form = useForm<TTokenSettings>({
    resolver: zodResolver(ZTokenSettings),
    defaultValues: { name: '', scope: 'read', expiresInDays: 90 },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((values) => setAsking(values));

  return (
    <Form onSubmit={onSubmit} aria-label={t('settings.tokens.createLabel')}>
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <Field
          id="token-name"
          label={t('settings.tokens.name')}
          error={fieldErrorText(errors.name, t)}
        >
          {(aria) => (
            <Input
              {...aria}
              placeholder={t('settings.tokens.namePlaceholder')}
              autoComplete="off"
              {...form.register('name')}
            />
          )}
        </Field>
        <Field
          id="token-scope"
          label={t('settings.tokens.scope')}
          error={fieldErrorText(errors.scope, t)}
        >
          {(aria) => (
            <NativeSelect {...aria} {...form.register('scope')}>
              {TOKEN_SCOPES.map((scope) => (
                <option key={scope} value={scope}>
                  {t(`settings.tokens.scopeOptions.${scope}`)}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <Field
          id="token-expiry"
          label={t('settings.tokens.expiry')}
          error={fieldErrorText(errors.expiresInDays, t)}
        >
          {(aria) => (
            <Controller
              control={form.control}
              name="expiresInDays"
              render={({ field }) => (
                <NativeSelect
                  {...aria}
                  name={field.name}
                  ref={field.ref}
                  onBlur={field.onBlur}
                  value={field.value === null ? 'never' : String(field.value)}
                  onChange={(e) =>
                    field.onChange(e.target.value === 'never' ? null : Number(e.target.value))
                  }
                >
                  {EXPIRY_DAYS.map((days) => (
                    <option key={days} value={days}>
                      {t('settings.tokens.days', { count: days })}
                    </option>
                  ))}
                  <option value="never">{t('settings.tokens.noExpiry')}</option>
                </NativeSelect>
              )}
            />
          )}
        </Field>
      </div>
      <p className="text-xs text-muted-foreground">{t('settings.tokens.scopeHint')}</p>
      <div>
        <SubmitButton pending={create.isPending} data-testid="token-create">
          {t('settings.tokens.create')}
        </SubmitButton>
      </div>
      <ReauthDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        title={t('settings.tokens.confirmTitle')}
        description={t('settings.tokens.confirmDescription')}
        submitLabel={t('settings.tokens.create')}
        codeAllowed={codeAllowed}
        testId="token-reauth"
        send={async (proof) => {
          const created = await create.mutateAsync({ ...asking!, ...proof });
          setAsking(null);
          form.reset();
          onCreated(created);
        }}
      />
    </Form>
  );
}
