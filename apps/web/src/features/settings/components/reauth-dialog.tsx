import type { TReauthInput } from '@portico/shared/auth/account';
import * as React from 'react';
import { FormDialog } from '@/components/form-dialog';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { CodeInput } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { errorDescription } from '@/lib/form-errors';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { SubmitButton } from './submit-button';

/**
 * Asks for a code from the authenticator (or a recovery code) or the password before a
 * sensitive change; `send` gets whichever was given, and its failure is shown here.
 */
export function ReauthDialog({
  open,
  onOpenChange,
  title,
  description,
  submitLabel,
  destructive = false,
  codeAllowed = true,
  send,
  testId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  submitLabel: string;
  destructive?: boolean;
  /** Two-factor is on: a code may stand in for the password (else only the password is asked). */
  codeAllowed?: boolean;
  send: (input: TReauthInput) => Promise<unknown>;
  testId: string;
}) {
  const { t } = useSettingsTexts();
  const [code, setCode] = React.useState('');
  const [password, setPassword] = React.useState('');
  const [error, setError] = React.useState<string | null>(null);
  const [pending, setPending] = React.useState(false);

  React.useEffect(() => {
    if (!open) {
      setCode('');
      setPassword('');
      setError(null);
    }
  }, [open]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!code.trim() && !password) {
      setError(
        t(
          codeAllowed ? 'validation.twoFactor.codeOrPassword' : 'validation.loginPassword.required',
        ),
      );
      return;
    }
    setPending(true);
    setError(null);
    try {
      await send(code.trim() ? { code: code.trim() } : { password });
    } catch (err) {
      setError(errorDescription(err, t, t('errors.general')));
    } finally {
      setPending(false);
    }
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      title={title}
      description={description}
      testId={testId}
    >
      <form onSubmit={submit} noValidate className="grid gap-4">
        {codeAllowed ? (
          <>
            <Field id={`${testId}-code`} label={t('settings.twoFactor.codeOrRecovery')}>
              {(aria) => (
                <CodeInput
                  {...aria}
                  inputMode="text"
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                />
              )}
            </Field>
            <p className="text-center text-sm text-muted-foreground">
              {t('settings.twoFactor.or')}
            </p>
          </>
        ) : null}
        <Field id={`${testId}-password`} label={t('settings.currentPassword')}>
          {(aria) => (
            <PasswordInput
              {...aria}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        {error ? (
          <Alert variant="destructive">
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        ) : null}
        <DialogFooter>
          <Button
            type="button"
            variant="outline"
            onClick={() => onOpenChange(false)}
            disabled={pending}
          >
            {t('settings.cancel')}
          </Button>
          <SubmitButton pending={pending} variant={destructive ? 'destructive' : 'default'}>
            {submitLabel}
          </SubmitButton>
        </DialogFooter>
      </form>
    </FormDialog>
  );
}
