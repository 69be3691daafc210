import { zodResolver } from '@hookform/resolvers/zod';
import { type TEditProxyInput, ZEditProxyInput } from '@portico/shared/proxy/api';
import type { TProxyOptionsView } from '@portico/shared/proxy/options';
import { ArrowLeftIcon, FileDiffIcon, PlayIcon, SaveIcon } from 'lucide-react';
import * as React from 'react';
import { type FieldError, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { PlanBody } from '@/components/plan/plan-body';
import { PlanFooter } from '@/components/plan/plan-dialog';
import { ProxyOptionsEditor } from '@/components/proxy-options-editor';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { BusyButton } from '@/components/ui/busy-button';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { CodeInput, Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { usePlanProxy } from '@/lib/deploy-plan';
import { applyServerIssues, fieldErrorText } from '@/lib/form-errors';
import { draftOf } from '@/lib/proxy-options-draft';
import { toastFailure } from '@/lib/toast-outcome';
import { usePlanTexts } from '@/lib/use-group-texts';
import { useOptionsDraft } from '@/lib/use-options-draft';
import { type TEditMode, useUpdateProxy } from '../api/update-proxy';
import { onChosenServer, ServerChoice, useServerPlaces } from './edit-server-choice';
import { useApplyAction } from './use-apply-action';

type TEditForm = z.input<typeof ZEditProxyInput>;

type TEditableProxy = {
  id: string;
  domain?: string | null;
  targetServer?: string | null;
  serverIp?: string | null;
  sshUser?: string | null;
  sshPort?: number | null;
  /** The saved server the proxy is on; null when its address was typed. */
  sshServerId?: string | null;
  /** Its owner: whose saved servers an admin may move it onto. */
  userId?: string;
  /** Unknown (undefined): the dialog leaves the stored options alone. */
  options?: TProxyOptionsView;
};

type TEditOwner = { username: string; email: string };

const FIELDS = ['domain', 'targetServer', 'serverIp', 'sshUser', 'sshPort'] as const;
const FIELD_BY_CODE = { domain_taken: 'domain', domain_managed: 'domain' } as const;

/** Defaults: empty domain, target and host; user root; port 22. */
export function editDefaults(proxy: TEditableProxy): TEditForm {
  return {
    domain: proxy.domain ?? '',
    targetServer: proxy.targetServer ?? '',
    serverIp: proxy.serverIp ?? '',
    sshUser: proxy.sshUser || 'root',
    sshPort: String(proxy.sshPort ?? 22),
  };
}

type TEditProxyDialogProps = {
  proxy: TEditableProxy;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 'admin' edits through the admin endpoint and shows the owner and the audit note. */
  mode?: TEditMode;
  owner?: TEditOwner;
};

export function EditProxyDialog({
  proxy,
  open,
  onOpenChange,
  mode = 'user',
  owner,
}: TEditProxyDialogProps) {
  const { t } = useTranslation();
  const { t: tPlan } = usePlanTexts();
  const update = useUpdateProxy();
  const plan = usePlanProxy();
  // Showing the plan of the edit (the form stays, hidden, with what was typed).
  const [planning, setPlanning] = React.useState(false);
  const [onlyTarget, setOnlyTarget] = React.useState(false);
  const apply = useApplyAction(() => onOpenChange(false));
  // The saved server chosen ('' for the typed address); an admin chooses among the owner's.
  const [serverId, setServerId] = React.useState(proxy.sshServerId ?? '');
  const places = useServerPlaces(proxy, mode);
  const chosen = places.find((o) => o.place.id === serverId)?.place ?? null;
  const chosenRef = React.useRef(chosen);
  chosenRef.current = chosen;
  const form = useForm<TEditForm, unknown, TEditProxyInput>({
    resolver: onChosenServer(zodResolver(ZEditProxyInput), () => chosenRef.current),
    mode: 'onTouched',
    defaultValues: editDefaults(proxy),
  });
  const { errors } = form.formState;
  const { reset } = form;
  const options = useOptionsDraft(draftOf(proxy.options));

  // Each opening starts from the configuration as it is now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the dialog opens
  React.useEffect(() => {
    if (open) {
      reset(editDefaults(proxy));
      options.reset(draftOf(proxy.options));
      setServerId(proxy.sshServerId ?? '');
    }
    setPlanning(false);
    setOnlyTarget(false);
    plan.reset();
  }, [open, reset]);

  /** The form's fields with the options editor's; null when the editor refuses its options. */
  const withOptions = (fields: TEditProxyInput): TEditProxyInput | null => {
    const checked = proxy.options === undefined ? undefined : options.check();
    if (checked === null) return null;
    return checked === undefined ? fields : { ...fields, options: checked };
  };

  // A plan shows a new target or options on the same site: another domain or server is another site.
  const samePlace = (input: TEditProxyInput) =>
    input.domain === proxy.domain &&
    input.serverIp === proxy.serverIp &&
    input.sshUser === (proxy.sshUser || 'root') &&
    input.sshPort === (proxy.sshPort ?? 22);

  const onShowPlan = form.handleSubmit((fields) => {
    const input = withOptions(fields);
    if (!input) return;
    setOnlyTarget(!samePlace(input));
    if (!samePlace(input)) return;
    setPlanning(true);
    plan.mutate({ id: proxy.id, targetServer: input.targetServer, options: input.options });
  });

  const onSaveAndApply = form.handleSubmit(async (fields) => {
    const planned = plan.data;
    const input = withOptions(fields);
    if (!planned || !input) return;
    try {
      await update.mutateAsync({ id: proxy.id, input, mode });
    } catch (error) {
      setPlanning(false);
      applyServerIssues(error, form.setError, FIELDS, FIELD_BY_CODE);
      options.applyServerIssues(error);
      toastFailure(error, t, t('proxies.edit.failed'));
      return;
    }
    await apply.run(proxy.id, planned.fingerprint);
  });

  const onSubmit = form.handleSubmit(async (fields) => {
    const input = withOptions(fields);
    if (!input) return;
    try {
      await update.mutateAsync({ id: proxy.id, input, mode });
      toast({
        title: mode === 'admin' ? t('proxies.edit.successAdmin') : t('proxies.edit.success'),
        description:
          mode === 'admin' && owner
            ? t('proxies.edit.successAdminDescription', { owner: owner.username })
            : input.domain,
      });
      onOpenChange(false);
    } catch (error) {
      applyServerIssues(error, form.setError, FIELDS, FIELD_BY_CODE);
      options.applyServerIssues(error);
      toastFailure(error, t, t('proxies.edit.failed'));
    }
  });

  const pending = update.isPending || apply.isPending;
  const field = (name: (typeof FIELDS)[number]) =>
    fieldErrorText(errors[name] as FieldError | undefined, t);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      title={mode === 'admin' ? t('proxies.edit.titleAdmin') : t('proxies.edit.title')}
      description={t('proxies.edit.description')}
      className={planning ? 'sm:max-w-3xl' : undefined}
      testId="edit-proxy-dialog"
    >
      {mode === 'admin' ? (
        <Alert variant="warning">
          <AlertDescription>
            {owner ? (
              <p data-testid="edit-proxy-owner" className="[overflow-wrap:anywhere]">
                {t('proxies.edit.owner', { username: owner.username, email: owner.email })}
              </p>
            ) : null}
            <p>{t('proxies.edit.auditNote')}</p>
          </AlertDescription>
        </Alert>
      ) : null}
      {planning ? <PlanBody plan={plan} /> : null}
      <form
        onSubmit={onSubmit}
        noValidate
        className={planning ? 'hidden' : 'grid gap-4'}
        id="edit-proxy-form"
      >
        <Field id="edit-domain" label={t('proxies.fields.domain')} error={field('domain')}>
          {(aria) => (
            <CodeInput {...aria} placeholder="app.example.com" {...form.register('domain')} />
          )}
        </Field>
        <Field
          id="edit-target"
          label={t('proxies.fields.targetServer')}
          error={field('targetServer')}
        >
          {(aria) => (
            <CodeInput
              {...aria}
              placeholder="http://10.0.0.5:8080"
              {...form.register('targetServer')}
            />
          )}
        </Field>
        {/* Its texts (the servers group) load on first use, kept off the home route's load. */}
        <React.Suspense fallback={null}>
          <ServerChoice
            options={places}
            value={serverId}
            onChange={setServerId}
            moving={serverId !== (proxy.sshServerId ?? '')}
          />
        </React.Suspense>
        {chosen ? null : (
          <>
            <Field
              id="edit-host"
              label={t('proxies.fields.sshHost')}
              hint={t('proxies.edit.sshHostHint')}
              error={field('serverIp')}
            >
              {(aria) => (
                <CodeInput {...aria} placeholder="203.0.113.10" {...form.register('serverIp')} />
              )}
            </Field>
            <div className="grid items-start gap-4 sm:grid-cols-[1fr_8rem]">
              <Field id="edit-user" label={t('proxies.fields.sshUser')} error={field('sshUser')}>
                {(aria) => <CodeInput {...aria} {...form.register('sshUser')} />}
              </Field>
              <Field id="edit-port" label={t('proxies.fields.sshPort')} error={field('sshPort')}>
                {(aria) => <Input {...aria} inputMode="numeric" {...form.register('sshPort')} />}
              </Field>
            </div>
          </>
        )}
        {proxy.options === undefined ? null : (
          <ProxyOptionsEditor
            idPrefix="edit"
            draft={options.draft}
            onChange={options.setDraft}
            errors={options.errors}
          />
        )}
        {chosen ? null : (
          <p className="text-sm text-muted-foreground" data-testid="edit-credential-note">
            {mode === 'admin'
              ? t('proxies.edit.credentialNoteAdmin')
              : t('proxies.edit.credentialNote')}
          </p>
        )}
        {onlyTarget ? (
          <Alert variant="warning" data-testid="edit-plan-only-target">
            <AlertDescription>{tPlan('plan.editOnlyTarget')}</AlertDescription>
          </Alert>
        ) : null}
      </form>
      {planning ? (
        <PlanFooter
          plan={plan}
          onLeave={() => setPlanning(false)}
          onApply={() => void onSaveAndApply()}
          applying={pending}
          labels={{
            leave: tPlan('plan.back'),
            apply: tPlan('plan.saveAndApply'),
            applying: tPlan('plan.applying'),
          }}
          leaveIcon={<ArrowLeftIcon aria-hidden="true" />}
          applyIcon={<PlayIcon aria-hidden="true" />}
          leaveTestId="edit-plan-back"
          applyTestId="edit-plan-apply"
        />
      ) : (
        <DialogFooter>
          <Button
            variant="outline"
            onClick={() => onOpenChange(false)}
            disabled={pending}
            data-testid="edit-proxy-cancel"
          >
            {t('proxies.edit.cancel')}
          </Button>
          <Button
            variant="outline"
            onClick={() => void onShowPlan()}
            disabled={pending}
            title={tPlan('plan.showHint')}
            data-testid="edit-proxy-plan"
          >
            <FileDiffIcon aria-hidden="true" />
            {tPlan('plan.show')}
          </Button>
          <BusyButton
            busy={pending}
            icon={<SaveIcon aria-hidden="true" />}
            busyLabel={t('proxies.edit.saving')}
            type="submit"
            form="edit-proxy-form"
            data-testid="edit-proxy-save"
          >
            {t('proxies.edit.save')}
          </BusyButton>
        </DialogFooter>
      )}
    </FormDialog>
  );
}
