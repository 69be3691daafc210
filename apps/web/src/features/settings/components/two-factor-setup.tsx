import type { TTwoFactorSetup } from '@portico/shared/auth/account';
import { ZTotpCode } from '@portico/shared/auth/account';
import * as React from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { CodeInput } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';
import { errorDescription } from '@/lib/form-errors';
import { useSettingsTexts } from '@/lib/use-group-texts';
import { useBeginTwoFactor, useConfirmTwoFactor } from '../api/account';
import { RecoveryCodes } from './recovery-codes';
import { RevokeTokensField } from './revoke-tokens-field';
import { SubmitButton } from './submit-button';

/** The secret in groups of four, as apps that take it typed show it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Turning two-factor on: a new secret as a QR code and as text; a first code from the app
 * confirms it (every other session ends; the API tokens too unless unticked); the ten recovery
 * codes are shown once. `onFinished` after they are kept.
 */
export function TwoFactorSetup({
  username,
  onFinished,
  onCancel,
}: {
  username: string;
  onFinished: () => void;
  onCancel?: () => void;
}) {
  const { t } = useSettingsTexts();
  const begin = useBeginTwoFactor();
  const confirm = useConfirmTwoFactor();
  const [setup, setSetup] = React.useState<TTwoFactorSetup | null>(null);
  const [codes, setCodes] = React.useState<string[] | null>(null);
  const [code, setCode] = React.useState('');
  const [revokeTokens, setRevokeTokens] = React.useState(true);
  const [error, setError] = React.useState<string | null>(null);

  const start = async () => {
    setError(null);
    try {
      setSetup(await begin.mutateAsync());
    } catch (err) {
      setError(errorDescription(err, t, t('settings.twoFactor.setupFailed')));
    }
  };

  // The QR code at once: the user asked to set it up (or must); a failure offers a retry.
  const begun = React.useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the setup is shown
  React.useEffect(() => {
    if (begun.current) return;
    begun.current = true;
    void start();
  }, []);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = ZTotpCode.safeParse(code);
    if (!parsed.success) {
      setError(t('validation.twoFactor.code'));
      return;
    }
    setError(null);
    try {
      setCodes((await confirm.mutateAsync({ code: parsed.data, revokeTokens })).recoveryCodes);
    } catch (err) {
      // The server's sentence offers recovery codes, which do not exist before the setup ends.
      const wrongCode = err instanceof ApiError && err.body?.code === 'two_factor_invalid';
      setError(
        wrongCode
          ? t('settings.twoFactor.setupCodeInvalid')
          : errorDescription(err, t, t('settings.twoFactor.setupFailed')),
      );
    }
  };

  if (codes) return <RecoveryCodes codes={codes} username={username} onDone={onFinished} />;

  if (!setup) {
    if (!error) return <Skeleton className="h-44 w-44" data-testid="two-factor-preparing" />;
    return (
      <div className="grid gap-3">
        {error ? (
          <Alert variant="destructive">
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            onClick={start}
            disabled={begin.isPending}
            data-testid="two-factor-start"
          >
            {t('settings.twoFactor.start')}
          </Button>
          {onCancel ? (
            <Button type="button" variant="outline" onClick={onCancel}>
              {t('settings.cancel')}
            </Button>
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-5" data-testid="two-factor-setup">
      <ol className="grid list-decimal gap-5 pl-5 text-sm">
        <li className="grid gap-3">
          <p>{t('settings.twoFactor.scan')}</p>
          <div className="w-fit rounded-lg border border-border bg-white p-3">
            <img
              src={setup.qrCode}
              alt={t('settings.twoFactor.qrAlt')}
              width={176}
              height={176}
              className="size-44"
              data-testid="two-factor-qr"
            />
          </div>
          <p className="text-muted-foreground">{t('settings.twoFactor.typeInstead')}</p>
          <code
            className="w-fit rounded-md bg-muted px-3 py-2 font-mono text-sm break-all"
            data-testid="two-factor-secret"
            data-secret={setup.secret}
          >
            {grouped(setup.secret)}
          </code>
        </li>
        <li className="grid gap-3">
          <Field
            id="two-factor-code"
            label={t('settings.twoFactor.enterCode')}
            error={error ?? undefined}
          >
            {(aria) => (
              <CodeInput
                {...aria}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={8}
                className="max-w-40 font-mono tracking-widest"
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            )}
          </Field>
        </li>
      </ol>
      <div className="grid gap-3">
        <p className="text-sm text-muted-foreground">{t('settings.twoFactor.endsSessions')}</p>
        <RevokeTokensField
          id="two-factor-revoke-tokens"
          checked={revokeTokens}
          onCheckedChange={setRevokeTokens}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <SubmitButton pending={confirm.isPending} data-testid="two-factor-confirm">
          {t('settings.twoFactor.confirm')}
        </SubmitButton>
        {onCancel ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            {t('settings.cancel')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
