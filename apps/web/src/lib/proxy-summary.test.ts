import type { TCertificateSummary } from '@portico/shared/certificates/schemas';
import type { TLastFailure } from '@portico/shared/proxy/api';
import { describe, expect, it } from 'vitest';
import { aProxy, SERVER_SITE } from '@/test/proxy';
import { proxySummary, summaryOfProxy } from './proxy-summary';

const FAILURE: TLastFailure = {
  deploymentId: 'd1',
  code: 'custom_script_failed',
  step: 'custom-script',
  message: 'The custom script exited with status 3.',
  text: { key: 'deploy.errors.custom_script_failed', params: { status: 3 } },
  at: '2026-11-22T16:00:00.000Z',
};

/** What the watch says of a certificate valid for five years, 1825 days left. */
const FIVE_YEARS: TCertificateSummary = {
  state: 'fine',
  daysLeft: 1825,
  notAfter: '2031-11-21T16:00:00.000Z',
  checkFailed: false,
  nginxNotReloaded: false,
};

const HTTP_ONLY = { ...SERVER_SITE, https: false, certificate: null };

describe('one summary per proxy', () => {
  it('failed with the HTTPS site live: failed and still serving, the reason, what to do', () => {
    const summary = summaryOfProxy(
      aProxy({
        status: 'failed',
        sslConfigured: true,
        serverSites: [SERVER_SITE],
        lastFailure: FAILURE,
      }),
      FIVE_YEARS,
    );
    expect(summary).toMatchObject({
      state: 'failedServing',
      tone: 'danger',
      serving: 'https',
      failure: { step: 'custom-script', message: FAILURE.message },
      next: 'fixAndRedeploy',
    });
    // The certificate is live: it is spoken of, in its own colour.
    expect(summary.certificate).toEqual({
      tone: 'fine',
      kind: 'expiresIn',
      daysLeft: 1825,
      notReloaded: false,
    });
  });

  it('failed with nothing live: no SSL, no certificate, the reason', () => {
    const summary = summaryOfProxy(
      aProxy({
        status: 'failed',
        // A stale flag from before: the record says nothing is enabled on the server.
        sslConfigured: true,
        serverSites: [{ ...SERVER_SITE, enabled: false, https: false }],
        lastFailure: { ...FAILURE, step: 'certificate', code: 'certificate_failed' },
      }),
      FIVE_YEARS,
    );
    expect(summary).toMatchObject({
      state: 'failed',
      tone: 'danger',
      serving: null,
      certificate: null,
      failure: { step: 'certificate' },
      next: 'fixAndRedeploy',
    });
  });

  it('failed with only the HTTP site enabled: served over HTTP, no certificate claimed', () => {
    const summary = summaryOfProxy(
      aProxy({ status: 'failed', serverSites: [HTTP_ONLY], lastFailure: FAILURE }),
      FIVE_YEARS,
    );
    expect(summary).toMatchObject({ state: 'failedServing', serving: 'http', certificate: null });
  });

  it('reset while live: pending redeploy, still serving, amber, never plain pending', () => {
    const summary = summaryOfProxy(
      aProxy({ status: 'pending', sslConfigured: true, serverSites: [SERVER_SITE] }),
      FIVE_YEARS,
    );
    expect(summary).toMatchObject({
      state: 'pendingServing',
      tone: 'warning',
      serving: 'https',
      next: 'redeployOrDelete',
    });
  });

  it('pending with nothing on the server: grey, continue the deployment', () => {
    const summary = summaryOfProxy(aProxy({ status: 'pending' }));
    expect(summary).toMatchObject({
      state: 'pending',
      tone: 'neutral',
      serving: null,
      certificate: null,
      failure: null,
      next: 'continue',
    });
  });

  it('expiring soon: amber, test the renewal; under a week: red, renew now', () => {
    const live = aProxy({ status: 'completed', sslConfigured: true, serverSites: [SERVER_SITE] });
    const soon = summaryOfProxy(live, { ...FIVE_YEARS, state: 'warning', daysLeft: 20 });
    expect(soon).toMatchObject({ state: 'live', tone: 'fine', next: 'testRenewal' });
    expect(soon.certificate).toMatchObject({ tone: 'warning', kind: 'expiresIn', daysLeft: 20 });
    const urgent = summaryOfProxy(live, { ...FIVE_YEARS, state: 'danger', daysLeft: 3 });
    expect(urgent).toMatchObject({ next: 'renewNow' });
    expect(urgent.certificate).toMatchObject({ tone: 'danger', daysLeft: 3 });
    const expired = summaryOfProxy(live, { ...FIVE_YEARS, state: 'danger', daysLeft: -2 });
    expect(expired.certificate).toMatchObject({ tone: 'danger', kind: 'expired' });
  });

  it('five years away is green, and nothing to do', () => {
    const summary = summaryOfProxy(
      aProxy({ status: 'completed', sslConfigured: true, serverSites: [SERVER_SITE] }),
      FIVE_YEARS,
    );
    expect(summary).toMatchObject({ state: 'live', tone: 'fine', next: null });
    expect(summary.certificate).toMatchObject({ tone: 'fine', kind: 'expiresIn', daysLeft: 1825 });
  });

  it('a failed live check is red and says so, never as "expires in 1825 days"', () => {
    const summary = summaryOfProxy(
      aProxy({ status: 'completed', sslConfigured: true, serverSites: [SERVER_SITE] }),
      { ...FIVE_YEARS, state: 'danger', checkFailed: true },
    );
    expect(summary.certificate).toMatchObject({ tone: 'danger', kind: 'checkFailed' });
    expect(summary.next).toBe('checkHttps');
  });

  it('while deploying: blue, wait, no old failure and no certificate claim', () => {
    const summary = summaryOfProxy(
      aProxy({
        status: 'deploying',
        sslConfigured: true,
        serverSites: [SERVER_SITE],
        lastFailure: FAILURE,
      }),
      FIVE_YEARS,
    );
    expect(summary).toMatchObject({
      state: 'deploying',
      tone: 'running',
      failure: null,
      certificate: null,
      next: 'wait',
    });
  });

  it('live and changed since: redeploy to apply it', () => {
    expect(
      proxySummary({
        status: 'completed',
        serving: 'https',
        lastFailure: null,
        changedSinceDeploy: true,
      }).next,
    ).toBe('applyChanges');
  });

  it('rows from before the record: the SSL flag stands for the HTTPS site', () => {
    expect(summaryOfProxy(aProxy({ status: 'completed', sslConfigured: true })).serving).toBe(
      'https',
    );
  });
});

describe('a site adopted as it is', () => {
  const ADOPTION = {
    file: '/etc/nginx/sites-enabled/shop',
    sha256: 'ab',
    changedAt: null,
    missingAt: null,
  };
  const adopted = (over: Parameters<typeof aProxy>[0] = {}) =>
    aProxy({
      status: 'completed',
      sslConfigured: true,
      serverSites: [],
      adoption: ADOPTION,
      ...over,
    });

  it('is adopted and live over HTTPS, with the certificate the watch saw, never pending', () => {
    const summary = summaryOfProxy(adopted(), FIVE_YEARS);
    expect(summary).toEqual({
      state: 'adopted',
      tone: 'fine',
      serving: 'https',
      failure: null,
      certificate: { tone: 'fine', kind: 'expiresIn', daysLeft: 1825, notReloaded: false },
      next: null,
    });
  });

  it('without a certificate it is served over HTTP, still adopted (no "continue the deployment")', () => {
    const summary = summaryOfProxy(adopted({ sslConfigured: false }), null);
    expect(summary).toMatchObject({
      state: 'adopted',
      serving: 'http',
      certificate: null,
      next: null,
    });
  });

  it('a certificate that needs attention is renewed on the server, never "renew now" in Portico', () => {
    for (const state of ['warning', 'danger'] as const) {
      const summary = summaryOfProxy(adopted(), { ...FIVE_YEARS, state, daysLeft: 3 });
      expect(summary).toMatchObject({ state: 'adopted', next: 'renewOnServer' });
      expect(summary.certificate?.tone).toBe(state);
    }
    const failedCheck = summaryOfProxy(adopted(), { ...FIVE_YEARS, checkFailed: true });
    expect(failedCheck.next).toBe('checkHttps');
  });

  it('the admin list says the same from its row', () => {
    const fromRow = proxySummary({
      status: 'completed',
      serving: 'https',
      lastFailure: null,
      adopted: true,
    });
    expect(fromRow).toMatchObject({ state: 'adopted', tone: 'fine', serving: 'https', next: null });
    expect(fromRow).toEqual({ ...summaryOfProxy(adopted()), certificate: null });
  });
});
