import { ArrowLeftIcon, CircleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { useConfiguration } from '../api/get-configuration';
import { wizardProgress } from '../state/progress';
import { initialWizardState, wizardReducer } from '../state/wizard-reducer';
import { CompleteStep } from './complete-step';
import { DeployStep } from './deploy-step';
import { DestinationStep } from './destination-step';
import { ProgressSteps } from './progress-steps';
import { ServerInfoStep } from './server-info-step';
import { StatusSidebar } from './status-sidebar';
import { ValidationStep } from './validation-step';

const WIZARD_PATH = '/proxy-wizard';

/** /proxy-wizard, optionally ?continueId= to resume a configuration (docs/PRODUCT.md#proxy-wizard). */
export function ProxyWizardPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const continueId = new URLSearchParams(useSearch()).get('continueId');
  const [state, dispatch] = React.useReducer(wizardReducer, undefined, initialWizardState);
  const configurationId = state.data.configurationId;
  const resuming = Boolean(continueId) && continueId !== configurationId;
  const resumeQuery = useConfiguration(resuming ? continueId : null);
  const config = useConfiguration(configurationId);
  // Opened for a configuration that already existed (a reload after a save counts too): the
  // title names it instead of "New reverse proxy". A restart or a new save makes it new again.
  const openedFor = React.useRef(continueId);
  // One reading of the steps and checks for the step bar and the sidebar alike.
  const progress = wizardProgress(state, config.data?.lastFailure);
  const existing = configurationId !== null && configurationId === openedFor.current;

  React.useEffect(() => {
    const loaded = resumeQuery.data;
    if (resuming && loaded && loaded.id === continueId)
      dispatch({ type: 'resumed', config: loaded });
  }, [resuming, resumeQuery.data, continueId]);

  // Move focus to the new step's heading so keyboard and screen reader users follow along.
  const firstRender = React.useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes
  React.useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    document.querySelector<HTMLElement>('[data-step-heading]')?.focus();
  }, [state.step]);

  const onSaved = (id: string) => {
    // A reload (e.g. during the deployment) resumes this configuration.
    if (continueId !== id)
      navigate(`${WIZARD_PATH}?continueId=${encodeURIComponent(id)}`, { replace: true });
  };
  const restart = () => {
    dispatch({ type: 'restart' });
    navigate(WIZARD_PATH, { replace: true });
  };

  let body: React.ReactNode;
  if (resuming && resumeQuery.isError) {
    const notFound = resumeQuery.error instanceof ApiError && resumeQuery.error.status === 404;
    body = (
      <Alert variant="destructive" data-testid="wizard-resume-error">
        <CircleAlertIcon aria-hidden="true" />
        <AlertTitle>
          {t(notFound ? 'wizard.resume.notFound' : 'wizard.resume.loadError')}
        </AlertTitle>
        <AlertDescription>
          <Button variant="link" className="h-auto p-0" onClick={restart}>
            {t('wizard.resume.startNew')}
          </Button>
        </AlertDescription>
      </Alert>
    );
  } else if (resuming) {
    body = (
      <div className="flex justify-center py-16">
        <Spinner className="size-8" label={t('wizard.resume.loading')} />
      </div>
    );
  } else {
    body = (
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0">
          {state.step === 'server-info' ? (
            <ServerInfoStep key={configurationId ?? 'new'} data={state.data} dispatch={dispatch} />
          ) : state.step === 'dns-validation' ? (
            <ValidationStep state={state} dispatch={dispatch} />
          ) : state.step === 'destination' ? (
            <DestinationStep
              data={state.data}
              dispatch={dispatch}
              customScriptName={config.data?.customScriptName ?? null}
              onSaved={onSaved}
            />
          ) : state.step === 'deploy' ? (
            <DeployStep state={state} dispatch={dispatch} />
          ) : (
            <CompleteStep
              domain={state.data.domain}
              configurationId={configurationId ?? undefined}
              onCreateAnother={restart}
              onDashboard={() => navigate('/')}
            />
          )}
        </div>
        <StatusSidebar state={state} progress={progress} config={config.data} dispatch={dispatch} />
      </div>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-3 py-6 sm:px-6 sm:py-10">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="ghost" size="sm" asChild className="-ml-2">
          <Link href="/" data-testid="wizard-back-home">
            <ArrowLeftIcon aria-hidden="true" />
            {t('wizard.backHome')}
          </Link>
        </Button>
      </div>
      <div>
        <h1
          className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-3xl"
          data-testid="wizard-title"
        >
          {existing ? t('wizard.titleExisting', { domain: state.data.domain }) : t('wizard.title')}
        </h1>
        <p className="mt-1 text-muted-foreground">{t('wizard.subtitle')}</p>
      </div>
      <ProgressSteps current={state.step} steps={progress.steps} />
      {body}
    </div>
  );
}
