import type { TDeployPlan } from '@portico/shared/proxy/api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch';
import { aProxy } from '@/test/proxy';
import { renderWithProviders } from '@/test/render';
import { emptyData, initialWizardState } from '../state/wizard-reducer';
import { DeployStep } from './deploy-step';

// The wizard's first deployment can be planned like any other (issue 39): "Show plan" reads what
// the deployment would write, and its Apply starts the run with the plan's fingerprint, which the
// wizard then follows as it follows Deploy.

const ID = '00000000-0000-4000-8000-000000000007';
const plan: TDeployPlan = {
  fingerprint: `v1:${'b'.repeat(64)}`,
  family: 'debian',
  files: [
    {
      path: '/etc/nginx/sites-available/proxy-app.example.com',
      kind: 'file',
      change: 'create',
      diff: '+server {\n+}\n',
      tooLarge: false,
      private: false,
    },
  ],
  commands: [{ kind: 'test', command: 'nginx -t' }],
  certificate: 'issue',
  reload: true,
  changes: true,
  targetServer: 'http://10.0.0.5:8080',
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the wizard deploy step’s plan', () => {
  it.each([
    ['en', 'Show plan'],
    ['es', 'Ver plan'],
  ] as const)('shows the plan, and Apply starts the run it follows (%s)', async (lang, label) => {
    const base = `/api/proxy-configurations/${ID}`;
    const { calls } = stubFetch({
      [`GET ${base}`]: { body: aProxy({ id: ID, domain: 'app.example.com', status: 'pending' }) },
      [`POST ${base}/plan`]: { body: plan },
      [`POST ${base}/apply`]: { status: 202, body: { success: true, deploymentId: 'd7' } },
    });
    const dispatch = vi.fn();
    const state = {
      ...initialWizardState(),
      step: 'deploy' as const,
      data: { ...emptyData, configurationId: ID, domain: 'app.example.com' },
    };
    await renderWithProviders(<DeployStep state={state} dispatch={dispatch} />, { lang });
    const show = screen.getByTestId('wizard-deploy-plan');
    expect(show.textContent).toBe(label);
    await act(async () => {
      fireEvent.click(show);
    });
    const dialog = await screen.findByTestId('plan-dialog');
    await within(dialog).findByTestId('plan-view');
    expect(within(dialog).getByTestId('plan-diff').textContent).toContain('server {');
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('plan-apply'));
    });
    await waitFor(() =>
      expect(dispatch).toHaveBeenCalledWith({ type: 'deployAccepted', deploymentId: 'd7' }),
    );
    expect(calls.find((c) => c.url === `${base}/apply`)?.body).toEqual({
      fingerprint: plan.fingerprint,
    });
    // Apply started it: Deploy's own route was never asked.
    expect(calls.some((c) => c.url.startsWith('/api/deploy/'))).toBe(false);
    await waitFor(() => expect(screen.queryByTestId('plan-dialog')).toBeNull());
  });
});

// Issue 41: the wizard's "wildcard certificate of this server" choice reaches the server before the
// run that uses it starts, as the DNS-01 credentials do; a refused choice starts no run.
describe('the wizard deploy step with the wildcard certificate of the same server', () => {
  const HOLDER = '00000000-0000-4000-8000-000000000045';
  const base = `/api/proxy-configurations/${ID}`;
  const wildcardState = () => ({
    ...initialWizardState(),
    step: 'deploy' as const,
    data: {
      ...emptyData,
      configurationId: ID,
      domain: 'c.example.com',
      certificate: { ...emptyData.certificate, method: 'wildcard' as const, holderId: HOLDER },
    },
  });

  it('sends the choice, then starts the run (en)', async () => {
    const { calls } = stubFetch({
      [`GET ${base}`]: { body: aProxy({ id: ID, domain: 'c.example.com', status: 'pending' }) },
      [`PUT ${base}/certificate/wildcard`]: { body: { using: null, available: [] } },
      [`POST /api/deploy/${ID}`]: { status: 202, body: { success: true, deploymentId: 'd9' } },
    });
    const dispatch = vi.fn();
    await renderWithProviders(<DeployStep state={wildcardState()} dispatch={dispatch} />, {
      lang: 'en',
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('wizard-deploy-start'));
    });
    await waitFor(() =>
      expect(dispatch).toHaveBeenCalledWith({ type: 'deployAccepted', deploymentId: 'd9' }),
    );
    const sent = calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url}`);
    expect(sent).toEqual([`PUT ${base}/certificate/wildcard`, `POST /api/deploy/${ID}`]);
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ holderId: HOLDER });
  });

  it('starts no run when the server refuses the choice, and says why (es)', async () => {
    const refusal = 'El certificado comodín ya no sirve a este dominio.';
    const { calls } = stubFetch({
      [`GET ${base}`]: { body: aProxy({ id: ID, domain: 'c.example.com', status: 'pending' }) },
      [`PUT ${base}/certificate/wildcard`]: {
        status: 409,
        body: {
          statusCode: 409,
          code: 'wildcard_not_live',
          message: refusal,
          text: { key: 'certificates.wildcard.notLive', params: { wildcard: '*.example.com' } },
        },
      },
    });
    const dispatch = vi.fn();
    await renderWithProviders(<DeployStep state={wildcardState()} dispatch={dispatch} />, {
      lang: 'es',
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('wizard-deploy-start'));
    });
    // The server's own sentence, not "a deployment is already running" (its 409 was the choice's).
    await waitFor(() =>
      expect(dispatch).toHaveBeenCalledWith(
        expect.objectContaining({
          type: 'deployRequestFailed',
          message: {
            key: 'wizard.deploy.requestError',
            params: {
              message: {
                key: 'certificates.wildcard.notLive',
                params: { wildcard: '*.example.com' },
              },
            },
          },
        }),
      ),
    );
    expect(calls.some((c) => c.url.startsWith('/api/deploy/'))).toBe(false);
    expect(dispatch).not.toHaveBeenCalledWith(expect.objectContaining({ type: 'deployAccepted' }));
  });
});
