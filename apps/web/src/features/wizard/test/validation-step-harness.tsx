import * as React from 'react';
import { ValidationStep } from '../components/validation-step';
import { initialWizardState, wizardReducer } from '../state/wizard-reducer';

/** The server address step one was given; the checks' stubs answer for it. */
export const serverIp = '203.0.113.10';

/** A catalog text with its `{{name}}` values put in, as the screen shows it. */
export const fill = (text: string, params: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => params[k] ?? '');

/**
 * The wizard's DNS check step as the wizard holds it, entered after step one with `domain` (and
 * the saved server picked there, if any);
 * the step the wizard is on is shown as the wrapper's data-step.
 */
export function ValidationStepHarness({
  domain,
  sshServerId = null,
}: {
  domain: string;
  sshServerId?: string | null;
}) {
  const [state, dispatch] = React.useReducer(wizardReducer, undefined, () =>
    wizardReducer(
      wizardReducer(initialWizardState(), {
        type: 'serverInfoSubmitted',
        info: {
          serverIp,
          domain,
          sshUser: 'root',
          sshPort: 22,
          sshPassword: 'pw',
          email: '',
          sshServerId,
        },
      }),
      { type: 'next' },
    ),
  );
  return (
    <div data-testid="harness" data-step={state.step}>
      <ValidationStep state={state} dispatch={dispatch} />
    </div>
  );
}
