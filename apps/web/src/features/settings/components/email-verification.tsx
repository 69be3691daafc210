import { type TNotificationSettings, ZEmailCodeInput } from '@portico/shared/notifications/schemas';
import { CheckIcon, MailIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { BusyButton } from '@/components/ui/busy-button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { errorDescription } from '@/lib/form-errors';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { useSendEmailCode, useVerifyEmail } from '../api/notifications';
import { formatTime } from '../lib/format';

/**
 * The alert address's state under the e-mail option: verified, or not with what to do about it
 * (send a code; enter the code sent, or send a new one). No alert and no test goes to an address
 * until its code is entered. Not a form of its own: it sits inside the settings form.
 */
export function EmailVerification({ settings }: { settings: TNotificationSettings }) {
  const { t, i18n } = useSettingsTexts();
  const sendCode = useSendEmailCode();
  const verify = useVerifyEmail();
  const [code, setCode] = React.useState('');
  const [error, setError] = React.useState<string | null>(null);
  const { email, emailCode } = settings;

  if (settings.emailVerified) {
    return (
      <p
        className="flex items-center gap-1 text-xs text-success [overflow-wrap:anywhere]"
        data-testid="notifications-email-verified"
      >
        <CheckIcon className="size-3.5 shrink-0" aria-hidden="true" />
        {t('settings.notifications.emailVerified')}
      </p>
    );
  }

  const ask = async () => {
    setError(null);
    try {
      await sendCode.mutateAsync(undefined);
      setCode('');
      toast({ title: t('settings.notifications.codeSentToast', { email }) });
    } catch (failure) {
      toast({
        variant: 'destructive',
        title: t('settings.notifications.codeNotSent'),
        description: errorDescription(failure, t),
      });
    }
  };
  const submit = async () => {
    const parsed = ZEmailCodeInput.safeParse({ code: code.replace(/\s+/g, '') });
    if (!parsed.success) {
      setError(t('validation.emailCode.invalid'));
      return;
    }
    setError(null);
    try {
      await verify.mutateAsync(parsed.data);
      toast({ title: t('settings.notifications.verifiedToast') });
    } catch (failure) {
      setError(errorDescription(failure, t));
    }
  };

  const pending = sendCode.isPending || verify.isPending;
  return (
    <Alert variant="warning" data-testid="notifications-email-verification">
      <MailIcon aria-hidden="true" />
      <AlertDescription className="grid gap-3">
        <span className="[overflow-wrap:anywhere]">
          {emailCode
            ? t('settings.notifications.emailCodeSent', {
                email: emailCode.sentTo,
                time: formatTime(emailCode.expiresAt, i18n.language),
              })
            : t('settings.notifications.emailUnverified')}
        </span>
        {emailCode ? (
          <Field
            id="notifications-email-code"
            label={t('settings.notifications.codeLabel')}
            error={error ?? undefined}
            className="text-foreground"
          >
            {(aria) => (
              <div className="flex flex-wrap gap-2">
                <Input
                  {...aria}
                  className="w-36 font-mono tracking-widest"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={9}
                  value={code}
                  onChange={(event) => setCode(event.target.value)}
                  onKeyDown={(event) => {
                    // Enter verifies the code; it must not submit the settings form around it.
                    if (event.key === 'Enter') {
                      event.preventDefault();
                      void submit();
                    }
                  }}
                />
                <BusyButton
                  busy={verify.isPending}
                  type="button"
                  onClick={() => void submit()}
                  disabled={pending}
                  data-testid="notifications-email-verify"
                >
                  {t('settings.notifications.verify')}
                </BusyButton>
              </div>
            )}
          </Field>
        ) : null}
        <BusyButton
          busy={sendCode.isPending}
          type="button"
          variant="outline"
          size="sm"
          className="justify-self-start"
          onClick={() => void ask()}
          disabled={pending}
          data-testid="notifications-email-send-code"
        >
          {emailCode
            ? t('settings.notifications.resendCode')
            : t('settings.notifications.sendCode')}
        </BusyButton>
      </AlertDescription>
    </Alert>
  );
}
