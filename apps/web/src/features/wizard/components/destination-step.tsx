import { CircleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { ProxyOptionsEditor } from '@/components/proxy-options-editor';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { draftOf } from '@/lib/proxy-options-draft';
import { toastFailure } from '@/lib/toast-outcome';
import { useOptionsDraft } from '@/lib/use-options-draft';
import { cn } from '@/lib/utils';
import { useDestinationServers } from '../api/get-destination-servers';
import { useSaveConfiguration } from '../api/save-configuration';
import { useUploadScript } from '../api/upload-script';
import { chosenTarget, MANUAL, preselect } from '../state/destination';
import { checkManualDestination } from '../state/manual-destination';
import type { TWizardAction, TWizardData } from '../state/wizard-reducer';
import { DestinationOption } from './destination-option';
import { ScriptUpload } from './script-upload';
import { StepCard } from './step-card';
import { StepNav } from './step-nav';

export function DestinationStep({
  data,
  dispatch,
  customScriptName,
  onSaved,
}: {
  data: TWizardData;
  dispatch: React.Dispatch<TWizardAction>;
  customScriptName: string | null;
  onSaved: (id: string) => void;
}) {
  const { t } = useTranslation();
  const servers = useDestinationServers();
  const save = useSaveConfiguration();
  const upload = useUploadScript();
  const list = servers.data ?? [];
  const [selection, setSelection] = React.useState<string | null>(null);
  const [manualEndpoint, setManualEndpoint] = React.useState('');
  const [script, setScript] = React.useState<File | null>(null);
  const preselected = React.useRef(false);
  // The collapsed "Advanced" part: options sent only when some are set, so resuming a
  // configuration never clears options it already holds.
  const options = useOptionsDraft(draftOf());

  React.useEffect(() => {
    if (preselected.current || servers.isPending) return;
    preselected.current = true;
    const initial = preselect(data.targetServer, servers.data ?? []);
    // A choice made while the list was loading stands: the preselection only fills a blank.
    setSelection((chosen) => chosen ?? initial.selection);
    setManualEndpoint((typed) => typed || initial.manualEndpoint);
  }, [servers.isPending, servers.data, data.targetServer]);

  const target = chosenTarget(selection, manualEndpoint, list);
  const manualCheck = checkManualDestination(manualEndpoint);
  const busy = save.isPending || upload.isPending;

  const onNext = async () => {
    if (!target) return;
    const checked = options.check();
    if (!checked) return;
    dispatch({ type: 'targetChosen', targetServer: target });
    let id: string;
    try {
      // On a saved server the save names it; else the typed server (saved for reuse).
      const server = data.sshServerId
        ? { sshServerId: data.sshServerId }
        : {
            serverIp: data.serverIp,
            sshUser: data.sshUser,
            sshPort: data.sshPort,
            sshPassword: data.sshPassword === '' ? undefined : data.sshPassword,
          };
      ({ id } = await save.mutateAsync({
        configurationId: data.configurationId ?? undefined,
        ...server,
        domain: data.domain,
        email: data.email,
        targetServer: target,
        hostKeyFingerprint: data.hostKeyFingerprint ?? undefined,
        ...(Object.keys(checked).length > 0 ? { options: checked } : {}),
      }));
    } catch (error) {
      options.applyServerIssues(error);
      toastFailure(error, t, t('wizard.destination.saveFailed'));
      return;
    }
    dispatch({ type: 'configurationSaved', id });
    onSaved(id);
    if (script) {
      try {
        await upload.mutateAsync({ file: script, configurationId: id });
        setScript(null);
      } catch (error) {
        toastFailure(error, t, t('errors.uploadFailed'));
        return;
      }
    }
    dispatch({ type: 'next' });
  };

  return (
    <StepCard
      title={t('wizard.destination.title')}
      description={t('wizard.destination.description')}
    >
      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-semibold">{t('wizard.destination.legend')}</legend>
        {servers.isPending ? (
          <div className="grid gap-3" aria-busy="true">
            <Skeleton className="h-20" />
            <Skeleton className="h-20" />
            <span className="sr-only">{t('common.loading')}</span>
          </div>
        ) : servers.isError ? (
          <Alert variant="destructive" data-testid="wizard-destination-error">
            <CircleAlertIcon aria-hidden="true" />
            <AlertDescription>{t('wizard.destination.loadError')}</AlertDescription>
          </Alert>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="wizard-destination-empty">
            {t('wizard.destination.empty')}
          </p>
        ) : (
          list.map((server) => (
            <DestinationOption
              key={server.id}
              server={server}
              checked={selection === server.id}
              onSelect={() => setSelection(server.id)}
            />
          ))
        )}
        <div
          className={cn(
            'grid gap-3 rounded-lg border p-4 focus-within:ring-2 focus-within:ring-ring',
            selection === MANUAL ? 'border-primary bg-primary-soft' : 'border-border',
          )}
        >
          <label
            htmlFor="wizard-destination-manual"
            className="flex cursor-pointer items-center gap-3"
          >
            <input
              id="wizard-destination-manual"
              type="radio"
              name="wizard-destination"
              value={MANUAL}
              checked={selection === MANUAL}
              onChange={() => setSelection(MANUAL)}
              className="size-4 shrink-0 accent-primary"
            />
            <span className="grid gap-0.5">
              <span className="font-medium">{t('wizard.destination.manual')}</span>
              <span className="text-sm text-muted-foreground">
                {t('wizard.destination.manualHint')}
              </span>
            </span>
          </label>
          {selection === MANUAL ? (
            <div className="grid gap-2">
              <label htmlFor="wizard-manual-endpoint" className="text-sm font-medium">
                {t('wizard.destination.endpoint')}
              </label>
              <Input
                id="wizard-manual-endpoint"
                value={manualEndpoint}
                onChange={(e) => setManualEndpoint(e.target.value)}
                placeholder="http://10.0.0.5:8080"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                aria-invalid={manualCheck.state === 'invalid'}
                aria-describedby={
                  manualCheck.state === 'empty' ? undefined : 'wizard-manual-endpoint-message'
                }
              />
              {manualCheck.state === 'empty' ? null : (
                <p
                  id="wizard-manual-endpoint-message"
                  aria-live="polite"
                  className={cn(
                    'text-xs font-medium',
                    manualCheck.state === 'valid' ? 'text-green-800' : 'text-destructive',
                  )}
                  data-testid="wizard-manual-endpoint-message"
                >
                  {t(manualCheck.messageKey)}
                </p>
              )}
            </div>
          ) : null}
        </div>
      </fieldset>
      <ScriptUpload file={script} onChange={setScript} currentName={customScriptName} />
      <ProxyOptionsEditor
        idPrefix="wizard"
        draft={options.draft}
        onChange={options.setDraft}
        errors={options.errors}
      />
      <StepNav
        onBack={() => dispatch({ type: 'back' })}
        onNext={onNext}
        nextDisabled={!target}
        nextBusy={busy}
        nextLabel={busy ? t('wizard.destination.saving') : undefined}
      />
    </StepCard>
  );
}
