import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { UploadIcon } from 'lucide-react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import {
  FormDialog,
  FormDialogFooter,
  fieldErrorOf,
  showSaveFailure,
} from '@/components/form-dialog';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { CodeInput, Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { PasswordField } from '@/components/ui/password-field';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import {
  createInput,
  FIELD_BY_CODE,
  FORM_FIELDS,
  formDefaults,
  type TServerForm,
  updateInput,
} from '@/lib/server-form';
import { useServersTexts } from '@/lib/use-group-texts';
import { useCreateSshServer, useUpdateSshServer } from '@/lib/use-ssh-servers';
import { GeneratedKey } from './generated-key';

type TProps = {
  /** The server to edit; null adds one. */
  server: TSshServer | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Adding: fields already known (the wizard's typed address and user, a login choice). */
  initial?: Partial<TServerForm>;
  /** Told of the saved server at once (a generated key's public half is shown after). */
  onSaved?: (server: TSshServer) => void;
};

/**
 * Add or edit a saved server (docs/PRODUCT.md#ssh-servers): one way to log in (a password, a
 * pasted or uploaded private key with its passphrase, or a key Portico generates), checked by
 * the API's schema before sending; what the API refuses shows on its field. A generated key's
 * public half is shown once saved, with the command that adds it on the server.
 */
export function ServerFormDialog({ server, open, onOpenChange, initial, onSaved }: TProps) {
  const { t } = useServersTexts();
  const create = useCreateSshServer();
  const update = useUpdateSshServer();
  const [generated, setGenerated] = React.useState<TSshServer | null>(null);
  const defaults = () => ({ ...formDefaults(server), ...(server ? {} : initial) });
  const form = useForm<TServerForm>({ defaultValues: defaults() });
  const { reset, setError, clearErrors } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: start over each time it opens
  React.useEffect(() => {
    if (!open) return;
    reset(defaults());
    setGenerated(null);
  }, [open, reset]);

  const login = form.watch('login');
  const pending = create.isPending || update.isPending;

  const onSubmit = form.handleSubmit(async (values) => {
    clearErrors();
    const checked = server ? updateInput(server, values) : createInput(values);
    if (!checked.ok) {
      for (const issue of checked.issues) setError(issue.field, { message: issue.message });
      return;
    }
    try {
      const saved = server
        ? await update.mutateAsync({ id: server.id, input: checked.input })
        : await create.mutateAsync(checked.input as Parameters<typeof create.mutateAsync>[0]);
      toast({
        title: t(server ? 'servers.form.updated' : 'servers.form.created'),
        description: saved.name,
      });
      onSaved?.(saved);
      if (values.login === 'generate' && saved.publicKey) setGenerated(saved);
      else onOpenChange(false);
    } catch (error) {
      showSaveFailure(error, form, {
        fields: FORM_FIELDS,
        fieldByCode: FIELD_BY_CODE,
        t,
        title: t('servers.form.saveFailed'),
        toastWhenPlaced: false,
      });
    }
  });

  const upload = async (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    form.setValue('privateKey', await file.text(), { shouldDirty: true });
    event.target.value = '';
  };

  const err = fieldErrorOf(form, t);
  const title = server
    ? t('servers.form.editTitle', { name: server.name })
    : t('servers.form.createTitle');

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      title={title}
      description={t('servers.form.description')}
      className="max-h-[90dvh] overflow-y-auto"
      testId="server-dialog"
    >
      {generated ? (
        <>
          <GeneratedKey server={generated} />
          <DialogFooter>
            <Button onClick={() => onOpenChange(false)} data-testid="server-generated-done">
              {t('servers.generated.done')}
            </Button>
          </DialogFooter>
        </>
      ) : (
        <>
          <form onSubmit={onSubmit} noValidate className="grid gap-4" id="server-form">
            <Field id="server-name" label={t('servers.form.name')} error={err('name')}>
              {(aria) => <Input {...aria} {...form.register('name')} />}
            </Field>
            <div className="grid gap-4 sm:grid-cols-[1fr_7rem]">
              <Field
                id="server-host"
                label={t('servers.form.host')}
                hint={server ? t('servers.form.movedHint') : undefined}
                error={err('host')}
              >
                {(aria) => (
                  <CodeInput {...aria} placeholder="203.0.113.10" {...form.register('host')} />
                )}
              </Field>
              <Field id="server-port" label={t('servers.form.port')} error={err('port')}>
                {(aria) => <CodeInput {...aria} inputMode="numeric" {...form.register('port')} />}
              </Field>
            </div>
            <Field id="server-username" label={t('servers.form.username')} error={err('username')}>
              {(aria) => <CodeInput {...aria} {...form.register('username')} />}
            </Field>
            <Field id="server-login" label={t('servers.form.login')} error={err('login')}>
              {(aria) => (
                <NativeSelect {...aria} {...form.register('login')}>
                  {server ? <option value="keep">{t('servers.form.keep')}</option> : null}
                  <option value="password">{t('servers.form.password')}</option>
                  <option value="paste">{t('servers.form.pasteKey')}</option>
                  <option value="generate">{t('servers.form.generateKey')}</option>
                </NativeSelect>
              )}
            </Field>
            {login === 'password' ? (
              <PasswordField
                id="server-password"
                label={t('servers.form.loginPassword')}
                error={err('password')}
                register={form.register}
                name="password"
                autoComplete="new-password"
              />
            ) : null}
            {login === 'paste' ? (
              <>
                <Field
                  id="server-private-key"
                  label={t('servers.form.privateKey')}
                  hint={t('servers.form.privateKeyHint')}
                  error={err('privateKey')}
                >
                  {(aria) => (
                    <Textarea
                      {...aria}
                      rows={5}
                      spellCheck={false}
                      autoComplete="off"
                      className="font-mono text-xs"
                      placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
                      {...form.register('privateKey')}
                    />
                  )}
                </Field>
                {/* The file input itself takes the focus (Space opens the picker): the ring shows it. */}
                <div className="w-fit rounded-md focus-within:ring-2 focus-within:ring-ring">
                  <Button type="button" variant="outline" size="sm" asChild>
                    <label htmlFor="server-key-file" className="cursor-pointer">
                      <UploadIcon aria-hidden="true" />
                      {t('servers.form.upload')}
                    </label>
                  </Button>
                  <input
                    id="server-key-file"
                    type="file"
                    className="sr-only"
                    onChange={(event) => void upload(event)}
                    data-testid="server-key-file"
                  />
                </div>
                <PasswordField
                  id="server-passphrase"
                  label={t('servers.form.passphrase')}
                  error={err('passphrase')}
                  register={form.register}
                  name="passphrase"
                  autoComplete="off"
                />
              </>
            ) : null}
            {login === 'generate' ? (
              <p className="text-sm text-muted-foreground" data-testid="server-generate-hint">
                {t('servers.form.generateHint')}
              </p>
            ) : null}
            {login === 'paste' || login === 'generate' ? (
              <PasswordField
                id="server-sudo-password"
                label={t('servers.form.sudoPassword')}
                hint={t('servers.form.sudoHint')}
                error={err('sudoPassword')}
                register={form.register}
                name="sudoPassword"
                autoComplete="off"
              />
            ) : null}
            <Field
              id="server-description"
              label={t('servers.form.notes')}
              error={err('description')}
            >
              {(aria) => <Textarea {...aria} rows={2} {...form.register('description')} />}
            </Field>
          </form>
          <FormDialogFooter
            formId="server-form"
            pending={pending}
            onCancel={() => onOpenChange(false)}
            cancelLabel={t('servers.form.cancel')}
            saveLabel={t('servers.form.save')}
            saveTestId="server-save"
          />
        </>
      )}
    </FormDialog>
  );
}
