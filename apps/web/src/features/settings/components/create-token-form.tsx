import { zodResolver } from '@hookform/resolvers/zod';
import {
  type TCreatedToken,
  type TCreateTokenInput,
  TOKEN_SCOPES,
  ZCreateTokenInput,
} from '@portico/shared/auth/account';
import { CopyIcon } from 'lucide-react';
import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Form } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/hooks/use-toast';
import { fieldErrorText } from '@/lib/form-errors';
import { useCreateToken } from '../api/account';
import { useFormSubmit } from '../lib/use-form-submit';
import { SubmitButton } from './submit-button';

const EXPIRY_DAYS = [7, 30, 90, 365] as const;

/** The new token, this once: copy it now, Portico keeps only its hash. */
function CreatedToken({ created, onDone }: { created: TCreatedToken; onDone: () => void }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      toast({ title: t('settings.tokens.copied') });
    } catch {
      toast({ variant: 'destructive', title: t('settings.tokens.copyFailed') });
    }
  };
  return (
    <Alert variant="success" data-testid="token-created">
      <AlertTitle>{t('settings.tokens.createdTitle', { name: created.name })}</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>{t('settings.tokens.createdDescription')}</p>
        <code
          className="rounded-md bg-background px-3 py-2 font-mono text-xs break-all text-foreground"
          data-testid="token-value"
        >
          {created.token}
        </code>
        <div className="flex flex-wrap gap-2">
          <Button type="button" size="sm" variant="outline" onClick={copy}>
            <CopyIcon aria-hidden="true" />
            {t('settings.tokens.copy')}
          </Button>
          <Button type="button" size="sm" onClick={onDone} data-testid="token-created-done">
            {t('settings.tokens.createdDone')}
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}

export function CreateTokenForm() {
  const { t } = useTranslation();
  const create = useCreateToken();
  const [created, setCreated] = React.useState<TCreatedToken | null>(null);
  const form = useForm<TCreateTokenInput>({
    resolver: zodResolver(ZCreateTokenInput),
    defaultValues: { name: '', scope: 'read', expiresInDays: 90 },
  });
  const { errors } = form.formState;
  const onSubmit = useFormSubmit({
    form,
    send: (values) => create.mutateAsync(values),
    fields: ['name', 'scope', 'expiresInDays'],
    failed: t('settings.tokens.createFailed'),
    onDone: (result) => {
      setCreated(result);
      form.reset();
    },
  });

  if (created) return <CreatedToken created={created} onDone={() => setCreated(null)} />;
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
    </Form>
  );
}
