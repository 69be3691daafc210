import { zodResolver } from '@hookform/resolvers/zod';
import {
  type TNotificationSettings,
  type TNotificationSettingsForm,
  type TNotificationTestResult,
  ZNotificationSettingsForm,
} from '@portico/shared/notifications/schemas';
import { SendIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { errorDescription, fieldErrorText } from '@/lib/form-errors';
import { useSettingsTexts } from '@/lib/use-group-texts';
import {
  useNotificationSettings,
  useSaveNotifications,
  useSendTestNotification,
} from '../api/notifications';
import { nowhereReason } from '../lib/notification-channels';
import { useFormSubmit } from '../lib/use-form-submit';
import { EmailVerification } from './email-verification';
import { SubmitButton } from './submit-button';

function TestResults({ result }: { result: TNotificationTestResult }) {
  const { t } = useSettingsTexts();
  const line = (key: 'resultEmail' | 'resultWebhook', r: TNotificationTestResult['email']) =>
    r ? (
      <li data-delivered={r.delivered}>
        {t(`settings.notifications.${key}`, {
          result: r.delivered ? t('settings.notifications.delivered') : r.error,
        })}
      </li>
    ) : null;
  if (!result.email && !result.webhook) {
    return <p className="text-sm">{t('settings.notifications.testNothing')}</p>;
  }
  return (
    <ul className="grid gap-1 text-sm" data-testid="notifications-test-result">
      {line('resultEmail', result.email)}
      {line('resultWebhook', result.webhook)}
    </ul>
  );
}

function NotificationsForm({ settings }: { settings: TNotificationSettings }) {
  const { t } = useSettingsTexts();
  const save = useSaveNotifications();
  const test = useSendTestNotification();
  const [result, setResult] = React.useState<TNotificationTestResult | null>(null);
  const form = useForm<TNotificationSettingsForm>({
    resolver: zodResolver(ZNotificationSettingsForm),
    defaultValues: { emailEnabled: settings.emailEnabled, webhookUrl: '' },
  });
  // An empty field keeps the stored webhook (it is never sent back to be shown).
  const onSubmit = useFormSubmit({
    form,
    send: ({ emailEnabled, webhookUrl }) =>
      save.mutateAsync(webhookUrl ? { emailEnabled, webhookUrl } : { emailEnabled }),
    fields: ['webhookUrl'],
    fieldByCode: {
      webhook_private: 'webhookUrl',
      webhook_forbidden: 'webhookUrl',
      webhook_unresolved: 'webhookUrl',
      limit_reached: 'webhookUrl',
    },
    done: () => t('settings.notifications.saved'),
    failed: t('settings.notifications.failed'),
    onDone: (saved) => form.reset({ emailEnabled: saved.emailEnabled, webhookUrl: '' }),
  });
  const remove = async () => {
    try {
      await save.mutateAsync({ emailEnabled: form.getValues('emailEnabled'), webhookUrl: null });
      toast({ title: t('settings.notifications.saved') });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('settings.notifications.failed'),
        description: errorDescription(error, t, t('settings.notifications.failed')),
      });
    }
  };
  const sendTest = async () => {
    setResult(null);
    try {
      const answer = await test.mutateAsync();
      setResult(answer);
      // "Sent" only when every channel took it: the lines below say what each did.
      const lines = [answer.email, answer.webhook].filter((r) => r !== null);
      if (lines.length > 0 && lines.every((r) => r.delivered)) {
        toast({ title: t('settings.notifications.testSent') });
      }
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('settings.notifications.testFailed'),
        description: errorDescription(error, t, t('settings.notifications.testFailed')),
      });
    }
  };
  const { errors } = form.formState;
  const emailOn = form.watch('emailEnabled');
  // One state, one message: with nowhere to send a test, the button is off and says why.
  const nowhere = nowhereReason(settings);
  const nowhereText = nowhere ? t(`settings.notifications.testNowhere.${nowhere}`) : null;
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid gap-5"
      aria-label={t('settings.notifications.title')}
    >
      <div className="grid gap-2">
        <div className="flex items-center gap-2">
          <Controller
            control={form.control}
            name="emailEnabled"
            render={({ field }) => (
              <Checkbox
                id="notifications-email"
                // Without SMTP the option is unavailable, never shown ticked.
                checked={settings.smtpConfigured && field.value}
                disabled={!settings.smtpConfigured}
                onCheckedChange={(value) => field.onChange(value === true)}
                onBlur={field.onBlur}
                aria-describedby="notifications-email-hint"
              />
            )}
          />
          <Label htmlFor="notifications-email">{t('settings.notifications.emailLabel')}</Label>
        </div>
        <p id="notifications-email-hint" className="text-xs text-muted-foreground">
          {settings.smtpConfigured
            ? t('settings.notifications.emailHint', { email: settings.email })
            : t('settings.notifications.emailUnavailable')}
        </p>
        {settings.smtpConfigured && emailOn ? <EmailVerification settings={settings} /> : null}
      </div>
      {settings.webhook ? (
        <Alert variant="info" data-testid="notifications-webhook-stored">
          <AlertDescription className="grid gap-2">
            <span className="[overflow-wrap:anywhere]">
              {t('settings.notifications.webhookStored', settings.webhook)}
            </span>
            <span>{t('settings.notifications.webhookReplace')}</span>
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="justify-self-start"
              onClick={() => void remove()}
              disabled={save.isPending}
              data-testid="notifications-webhook-remove"
            >
              <Trash2Icon aria-hidden="true" />
              {t('settings.notifications.removeWebhook')}
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}
      <Field
        id="notifications-webhook"
        label={t('settings.notifications.webhookLabel')}
        hint={t('settings.notifications.webhookHint')}
        error={fieldErrorText(errors.webhookUrl, t)}
      >
        {(aria) => (
          <Input
            {...aria}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://hooks.slack.com/services/…"
            {...form.register('webhookUrl')}
          />
        )}
      </Field>
      <div className="flex flex-wrap gap-2">
        <SubmitButton pending={save.isPending} data-testid="notifications-save">
          {t('settings.notifications.save')}
        </SubmitButton>
        <BusyButton
          busy={test.isPending}
          icon={<SendIcon aria-hidden="true" />}
          type="button"
          variant="outline"
          onClick={() => void sendTest()}
          disabled={nowhere !== null}
          aria-describedby={nowhereText ? 'notifications-test-nowhere' : undefined}
          data-testid="notifications-test"
        >
          {t('settings.notifications.test')}
        </BusyButton>
      </div>
      {nowhereText ? (
        <p
          id="notifications-test-nowhere"
          className="text-sm text-muted-foreground"
          data-testid="notifications-test-nowhere"
        >
          {nowhereText}
        </p>
      ) : null}
      {result && !nowhereText ? <TestResults result={result} /> : null}
    </form>
  );
}

/** Settings → Notifications: where certificate alerts go, and a test message. */
export function NotificationsSection() {
  const query = useNotificationSettings();
  if (!query.data) return <Skeleton className="h-40 w-full" />;
  return <NotificationsForm settings={query.data} />;
}
