import { dnsProviderOffers } from '@portico/shared/certificates/dns-providers';
import { coveringWildcard } from '@portico/shared/certificates/wildcard-use';
import { RotateCwIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { dnsChallengeOf, offerIn, type TDnsProblems } from '@/lib/dns-challenge';
import { reasonText } from '@/lib/form-errors';
import { useCertificateTexts } from '@/lib/use-group-texts';
import { useWildcardOffer } from '@/lib/wildcard-use';
import { useSavedServers } from '../api/saved-servers';
import { useTestSsh } from '../api/test-ssh';
import { useValidateDns } from '../api/validate-dns';
import { checkedName } from '../state/certificate-choice';
import type { TWizardAction, TWizardState } from '../state/wizard-reducer';
import { CertificateMethodCard } from './certificate-method-card';
import { DnsCheckCard } from './dns-check-card';
import { SshCheckCard } from './ssh-check-card';
import { StepCard } from './step-card';
import { StepNav } from './step-nav';

/**
 * The validation step (docs/PRODUCT.md#proxy-wizard): DNS runs on entering (and again after an edit of domain or IP, which resets
 * the checks); SSH starts once when DNS succeeds; Retry resets both and restarts DNS.
 */
export function ValidationStep({
  state,
  dispatch,
}: {
  state: TWizardState;
  dispatch: React.Dispatch<TWizardAction>;
}) {
  const { t } = useTranslation();
  const certificateTexts = useCertificateTexts();
  const validateDns = useValidateDns();
  const testSsh = useTestSsh();
  const { dns, ssh, data } = state;
  const { mutateAsync: runDns } = validateDns;
  const { mutateAsync: runSsh } = testSsh;
  const [problems, setProblems] = React.useState<TDnsProblems>({});
  // A wildcard has no name of its own: the check asks for the name the server's checks use.
  const name = checkedName(data.domain, data.certificate);
  const dns01 = data.certificate.method === 'dns-01';
  // A saved server's last check tells which DNS plugins it offers; a typed server is unknown.
  const savedServers = useSavedServers();
  const chosenServer = data.sshServerId
    ? savedServers.data?.find((s) => s.id === data.sshServerId)
    : undefined;
  const offers = chosenServer ? dnsProviderOffers(chosenServer.facts) : null;
  // The server says which wildcard certificate of the same server covers the domain, if any.
  const covered = coveringWildcard(data.domain) !== undefined;
  const wildcards = useWildcardOffer(data.domain, data.serverIp, covered);
  const offered = covered ? (wildcards.data?.available?.[0] ?? null) : null;

  // Entering the step checks again; a fresh state is already waiting and needs no reset.
  const enteredWith = React.useRef(dns.status);
  React.useEffect(() => {
    if (enteredWith.current !== 'waiting') dispatch({ type: 'validationRestarted' });
  }, [dispatch]);

  React.useEffect(() => {
    if (dns.status !== 'waiting') return;
    const runId = dns.runId;
    dispatch({ type: 'dnsStarted', runId });
    const against = data.sshServerId
      ? { sshServerId: data.sshServerId }
      : { serverIp: data.serverIp };
    runDns({ domain: name, ...against }).then(
      (result) => dispatch({ type: 'dnsFinished', runId, result }),
      (error: unknown) => dispatch({ type: 'dnsErrored', runId, message: reasonText(error) }),
    );
  }, [dns.status, dns.runId, name, data.serverIp, data.sshServerId, dispatch, runDns]);

  React.useEffect(() => {
    if (dns.status !== 'verified' || ssh.status !== 'pending') return;
    const runId = dns.runId;
    dispatch({ type: 'sshStarted', runId });
    // A saved server logs in with its own address and secrets: nothing typed is sent.
    const login = data.sshServerId
      ? { sshServerId: data.sshServerId }
      : {
          serverIp: data.serverIp,
          username: data.sshUser,
          port: data.sshPort,
          password: data.sshPassword === '' ? undefined : data.sshPassword,
          configurationId: data.configurationId ?? undefined,
        };
    runSsh(login).then(
      (result) => dispatch({ type: 'sshFinished', runId, result }),
      (error: unknown) => dispatch({ type: 'sshErrored', runId, message: reasonText(error) }),
    );
  }, [dns.status, dns.runId, ssh.status, data, dispatch, runSsh]);

  const busy = dns.status === 'validating' || ssh.status === 'validating';
  const canRetry = dns.status === 'failed' || ssh.status === 'failed';
  return (
    <StepCard title={t('wizard.validation.title')} description={t('wizard.validation.description')}>
      <CertificateMethodCard
        domain={data.domain}
        choice={data.certificate}
        problems={problems}
        offers={offers}
        offered={offered}
        onChange={(certificate) => {
          setProblems({});
          dispatch({ type: 'certificateChanged', certificate });
        }}
      />
      <DnsCheckCard
        dns={dns}
        domain={name}
        serverIp={data.serverIp}
        note={
          dns01 ? (
            <p className="text-xs text-muted-foreground" data-testid="wizard-dns01-note">
              {certificateTexts.t('certificate.dns.wizard.checkNote', { name })}
            </p>
          ) : null
        }
      />
      <SshCheckCard ssh={ssh} />
      <StepNav
        onBack={() => dispatch({ type: 'back' })}
        onNext={() => {
          // The provider's fields are checked here, by the rules the server applies on saving.
          const checked = dns01 ? dnsChallengeOf(data.certificate.dns, false) : null;
          if (checked && 'problems' in checked) setProblems(checked.problems);
          // Not offered by the server: the alert under the provider says why; nothing goes on.
          else if (dns01 && offerIn(offers, data.certificate.dns.provider) === 'not_offered')
            return;
          else dispatch({ type: 'next' });
        }}
        nextDisabled={!(dns.status === 'verified' && ssh.status === 'verified')}
        extra={
          canRetry || busy ? (
            <Button
              variant="outline"
              onClick={() => dispatch({ type: 'validationRestarted' })}
              disabled={busy}
              data-testid="wizard-retry"
            >
              <RotateCwIcon aria-hidden="true" />
              {t('wizard.validation.retry')}
            </Button>
          ) : null
        }
      />
    </StepCard>
  );
}
