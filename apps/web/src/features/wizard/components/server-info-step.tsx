import { zodResolver } from '@hookform/resolvers/zod';
import { isWildcardDomain } from '@portico/shared/certificates/dns-challenge';
import { CheckCircle2Icon, CircleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { CodeInput, Input } from '@/components/ui/input';
import { PasswordField } from '@/components/ui/password-field';
import { ToastAction } from '@/components/ui/toast';
import { toast } from '@/hooks/use-toast';
import { fieldErrorText } from '@/lib/form-errors';
import { toastFailure } from '@/lib/toast-outcome';
import { useCheckDuplicate } from '../api/check-duplicate';
import { useSavedServers } from '../api/saved-servers';
import { autoFillEmail } from '../state/email';
import {
  passingFields,
  serverInfoSchema,
  type TServerInfoForm,
  type TServerInfoValues,
} from '../state/server-info-schema';
import type { TWizardAction, TWizardData } from '../state/wizard-reducer';
import { WildcardNote } from './certificate-method-card';
import { NewServerKeyOption } from './new-server-key-option';
import { NEW_SERVER, SavedServerChoice } from './saved-server-choice';
import { ServerWarnings } from './server-warnings';
import { StepCard } from './step-card';
import { StepNav } from './step-nav';

const DUPLICATE_REDIRECT_MS = 2000;

/** A field label with a check mark once the field's value passes its rule. */
function MarkedLabel({ text, ok }: { text: string; ok: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="inline-flex items-center gap-1.5">
      {text}
      {ok ? (
        <span className="inline-flex items-center gap-1 text-xs font-medium text-success">
          <CheckCircle2Icon className="size-4" aria-hidden="true" />
          <span className="sr-only">{t('wizard.serverInfo.fieldOk')}</span>
        </span>
      ) : null}
    </span>
  );
}

export function ServerInfoStep({
  data,
  dispatch,
}: {
  data: TWizardData;
  dispatch: React.Dispatch<TWizardAction>;
}) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const duplicate = useCheckDuplicate();
  const [redirecting, setRedirecting] = React.useState(false);
  const servers = useSavedServers().data ?? [];
  const [choice, setChoice] = React.useState(data.sshServerId ?? NEW_SERVER);
  const chosen = servers.find((s) => s.id === choice) ?? null;
  // A chosen server logs in with its own secrets: like a saved password for its very target.
  const savedFor = chosen
    ? { serverIp: chosen.host, sshUser: chosen.username, sshPort: chosen.port }
    : data.savedPasswordFor;
  const savedForNow = React.useRef(savedFor);
  savedForNow.current = savedFor;
  const form = useForm<TServerInfoForm, unknown, TServerInfoValues>({
    resolver: (values, context, options) =>
      zodResolver(serverInfoSchema(savedForNow.current))(values, context, options),
    mode: 'onChange',
    defaultValues: {
      serverIp: data.serverIp,
      domain: data.domain,
      sshUser: data.sshUser,
      sshPassword: data.sshPassword,
      email: data.email,
      sshPort: String(data.sshPort),
    },
  });
  const { errors } = form.formState;
  const values = form.watch();
  const passing = passingFields(values, savedFor);
  const savedPassword = data.savedPasswordFor !== null;

  const choose = (value: string, server = servers.find((s) => s.id === value)) => {
    setChoice(value);
    const fields = server
      ? { serverIp: server.host, sshUser: server.username, sshPort: String(server.port) }
      : { serverIp: '', sshUser: 'root', sshPort: '22' };
    for (const [name, v] of Object.entries(fields)) form.setValue(name as keyof typeof fields, v);
    form.setValue('sshPassword', '');
    form.clearErrors(['serverIp', 'sshUser', 'sshPort', 'sshPassword']);
  };
  // A saved password is kept only for its own server, port and user: changing one re-judges it.
  const target = savedPassword ? { deps: ['sshPassword' as const] } : {};

  React.useEffect(() => {
    const sub = form.watch((v, { name }) => {
      if (name !== 'domain') return;
      const email = autoFillEmail(v.domain ?? '', v.email ?? '');
      if (email !== v.email) form.setValue('email', email, { shouldValidate: true });
    });
    return () => sub.unsubscribe();
  }, [form]);

  React.useEffect(() => {
    if (!redirecting) return;
    const timer = setTimeout(() => navigate('/'), DUPLICATE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [redirecting, navigate]);

  const onSubmit = form.handleSubmit(async (v) => {
    dispatch({
      type: 'serverInfoSubmitted',
      info: {
        serverIp: v.serverIp,
        domain: v.domain,
        sshUser: v.sshUser,
        sshPort: Number(v.sshPort),
        sshPassword: chosen ? '' : v.sshPassword,
        email: v.email,
        sshServerId: chosen?.id ?? null,
      },
    });
    try {
      const result = await duplicate.mutateAsync({
        domain: v.domain,
        serverIp: v.serverIp,
        sshUser: v.sshUser,
        configurationId: data.configurationId ?? undefined,
      });
      if (result.isDuplicate && result.existingId) {
        // The user's own: the spec's toast and return home, the form left as it is meanwhile.
        const existing = `/proxy-details/${encodeURIComponent(result.existingId)}`;
        const open = t('wizard.duplicate.openExisting');
        toast({
          variant: 'destructive',
          title: t('wizard.duplicate.found'),
          description: t('wizard.duplicate.redirecting'),
          action: (
            <ToastAction
              altText={open}
              onClick={() => navigate(existing)}
              data-testid="wizard-duplicate-open"
            >
              {open}
            </ToastAction>
          ),
        });
        setRedirecting(true);
        return;
      }
      if (result.isDuplicate) {
        // Another account's: nothing to go back to. The field says so, in neutral words (a key,
        // so it follows a language switch), and everything typed stays.
        form.setError(
          'domain',
          { type: 'taken', message: 'errors.domainManaged' },
          { shouldFocus: true },
        );
        return;
      }
    } catch (error) {
      // A failed check lets the wizard go on (docs/PRODUCT.md#proxy-wizard).
      toastFailure(error, t, t('errors.duplicateCheckError'));
    }
    dispatch({ type: 'next' });
  });

  const emailError = fieldErrorText(errors.email, t);
  return (
    <StepCard title={t('wizard.serverInfo.title')} description={t('wizard.serverInfo.description')}>
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid gap-5"
        aria-label={t('wizard.serverInfo.title')}
      >
        {servers.length > 0 ? (
          <SavedServerChoice servers={servers} value={choice} onChange={choose} />
        ) : null}
        {chosen ? <ServerWarnings server={chosen} /> : null}
        <div className="grid gap-5 sm:grid-cols-2">
          {chosen ? null : (
            <Field
              id="wizard-server-ip"
              label={<MarkedLabel text={t('wizard.serverInfo.serverIp')} ok={passing.serverIp} />}
              hint={t('wizard.serverInfo.serverIpHint')}
              error={fieldErrorText(errors.serverIp, t)}
            >
              {(aria) => (
                <Input
                  {...aria}
                  inputMode="decimal"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="203.0.113.10"
                  {...form.register('serverIp', target)}
                />
              )}
            </Field>
          )}
          <Field
            id="wizard-domain"
            label={
              <MarkedLabel
                text={t('wizard.serverInfo.domain')}
                ok={passing.domain && !errors.domain}
              />
            }
            hint={
              isWildcardDomain(values.domain?.trim() ?? '') ? (
                <WildcardNote />
              ) : (
                t('wizard.serverInfo.domainHint')
              )
            }
            error={fieldErrorText(errors.domain, t)}
          >
            {(aria) => (
              <CodeInput {...aria} placeholder="app.example.com" {...form.register('domain')} />
            )}
          </Field>
          {chosen ? null : (
            <>
              <Field
                id="wizard-ssh-user"
                label={<MarkedLabel text={t('wizard.serverInfo.sshUser')} ok={passing.sshUser} />}
                error={fieldErrorText(errors.sshUser, t)}
              >
                {(aria) => <CodeInput {...aria} {...form.register('sshUser', target)} />}
              </Field>
              <PasswordField
                id="wizard-ssh-password"
                label={
                  <MarkedLabel text={t('wizard.serverInfo.sshPassword')} ok={passing.sshPassword} />
                }
                hint={savedPassword ? t('wizard.serverInfo.savedPassword') : undefined}
                error={fieldErrorText(errors.sshPassword, t)}
                autoComplete="new-password"
                placeholder={
                  savedPassword ? t('wizard.serverInfo.savedPasswordPlaceholder') : undefined
                }
                register={form.register}
                name="sshPassword"
              />
            </>
          )}
        </div>
        <input type="hidden" {...form.register('email')} data-testid="wizard-email" />
        {emailError && !errors.domain ? (
          <Alert variant="destructive">
            <CircleAlertIcon aria-hidden="true" />
            <AlertDescription>
              {t('wizard.serverInfo.email')}: {emailError}
            </AlertDescription>
          </Alert>
        ) : null}
        {chosen ? null : (
          <NewServerKeyOption
            typed={{ serverIp: values.serverIp, sshUser: values.sshUser, sshPort: values.sshPort }}
            onSaved={(server) => choose(server.id, server)}
          />
        )}
        {chosen ? null : (
          <details className="rounded-md border border-border px-4 py-3 text-sm">
            <summary className="cursor-pointer font-medium">
              {t('wizard.serverInfo.advanced')}
            </summary>
            <div className="mt-4 max-w-40">
              <Field
                id="wizard-ssh-port"
                label={t('wizard.serverInfo.sshPort')}
                error={fieldErrorText(errors.sshPort, t)}
              >
                {(aria) => (
                  <Input
                    {...aria}
                    inputMode="numeric"
                    autoComplete="off"
                    {...form.register('sshPort', target)}
                  />
                )}
              </Field>
            </div>
          </details>
        )}
        <StepNav
          nextType="submit"
          nextBusy={duplicate.isPending || redirecting}
          nextLabel={duplicate.isPending ? t('wizard.serverInfo.checking') : undefined}
        />
      </form>
    </StepCard>
  );
}
