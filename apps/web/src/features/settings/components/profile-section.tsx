import { zodResolver } from '@hookform/resolvers/zod';
import {
  type TEmailChangeInput,
  type TProfileInput,
  ZEmailChangeInput,
  ZProfileInput,
} from '@portico/shared/auth/account';
import { useForm } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { Form } from '@/components/ui/form';
import { CodeInput, Input } from '@/components/ui/input';
import { PasswordField } from '@/components/ui/password-field';
import { Separator } from '@/components/ui/separator';
import { fieldErrorText } from '@/lib/form-errors';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { useChangeEmail, useSaveProfile } from '../api/account';
import { useFormSubmit } from '../lib/use-form-submit';
import type { TSettingsSectionProps } from './settings-section';
import { SubmitButton } from './submit-button';

function NamesForm({ user }: TSettingsSectionProps) {
  const { t } = useSettingsTexts();
  const save = useSaveProfile();
  const form = useForm<TProfileInput>({
    resolver: zodResolver(ZProfileInput),
    defaultValues: { firstName: user.firstName ?? '', lastName: user.lastName ?? '' },
  });
  const { errors } = form.formState;
  const onSubmit = useFormSubmit({
    form,
    send: (values) => save.mutateAsync(values),
    fields: ['firstName', 'lastName'],
    done: () => t('settings.profile.saved'),
    failed: t('settings.profile.saveFailed'),
  });
  return (
    <Form onSubmit={onSubmit} aria-label={t('settings.profile.namesForm')}>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field
          id="profile-first-name"
          label={t('settings.profile.firstName')}
          error={fieldErrorText(errors.firstName, t)}
        >
          {(aria) => <Input {...aria} autoComplete="given-name" {...form.register('firstName')} />}
        </Field>
        <Field
          id="profile-last-name"
          label={t('settings.profile.lastName')}
          error={fieldErrorText(errors.lastName, t)}
        >
          {(aria) => <Input {...aria} autoComplete="family-name" {...form.register('lastName')} />}
        </Field>
      </div>
      <div>
        <SubmitButton pending={save.isPending} data-testid="profile-save">
          {t('settings.profile.save')}
        </SubmitButton>
      </div>
    </Form>
  );
}

function EmailForm({ user }: TSettingsSectionProps) {
  const { t } = useSettingsTexts();
  const change = useChangeEmail();
  const form = useForm<TEmailChangeInput>({
    resolver: zodResolver(ZEmailChangeInput),
    defaultValues: { email: user.email, currentPassword: '' },
  });
  const { errors } = form.formState;
  const onSubmit = useFormSubmit({
    form,
    send: (values) => change.mutateAsync(values),
    fields: ['email', 'currentPassword'],
    fieldByCode: { wrong_password: 'currentPassword', email_taken: 'email' },
    done: (result) => t('settings.profile.emailChanged', { email: result.email }),
    failed: t('settings.profile.emailFailed'),
    onDone: (result) => form.reset({ email: result.email, currentPassword: '' }),
  });
  return (
    <Form onSubmit={onSubmit} aria-label={t('settings.profile.emailForm')}>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field
          id="profile-email"
          label={t('settings.profile.email')}
          error={fieldErrorText(errors.email, t)}
        >
          {(aria) => (
            <CodeInput {...aria} type="email" autoComplete="email" {...form.register('email')} />
          )}
        </Field>
        <PasswordField
          id="profile-email-password"
          label={t('settings.currentPassword')}
          hint={t('settings.profile.emailPasswordHint')}
          error={fieldErrorText(errors.currentPassword, t)}
          autoComplete="current-password"
          register={form.register}
          name="currentPassword"
        />
      </div>
      <div>
        <SubmitButton pending={change.isPending} data-testid="email-save">
          {t('settings.profile.changeEmail')}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** First and last name; the e-mail, which signs in too, only with the current password. */
export function ProfileSection({ user }: TSettingsSectionProps) {
  return (
    <>
      <NamesForm user={user} />
      <Separator />
      <EmailForm user={user} />
    </>
  );
}
