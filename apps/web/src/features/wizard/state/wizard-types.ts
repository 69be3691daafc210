import type { TText } from '@portico/shared/i18n/text';
import type {
  TDnsValidationResult,
  TProxyConfiguration,
  TSshTestResult,
} from '@portico/shared/proxy/api';
import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import type { TLogLine } from '@/lib/live-deployment/logs';
import type { TCertificateChoice } from './certificate-choice';
import type { TWizardStep } from './steps';

/** Where a saved SSH password may be sent: the server, port and user it was entered for. */
export type TPasswordTarget = { serverIp: string; sshUser: string; sshPort: number };

/** The wizard's state, plus what resuming and pinning need. */
export type TWizardData = {
  serverIp: string;
  domain: string;
  sshUser: string;
  sshPort: number;
  /** Empty when resuming: the stored password is kept. */
  sshPassword: string;
  email: string;
  targetServer: string;
  configurationId: string | null;
  /** The target a saved password was entered for; null when none is saved. */
  savedPasswordFor: TPasswordTarget | null;
  /** What the last SSH test saw; pinned when the configuration is saved. */
  hostKeyFingerprint: string | null;
  /**
   * A saved SSH server chosen in step one: its address, user and secrets are the server's, so
   * nothing is typed and the checks and the save name the server instead.
   */
  sshServerId: string | null;
  /** HTTP-01 or DNS-01 and its provider's fields (sent once the proxy is saved). */
  certificate: TCertificateChoice;
};

type TDnsStatus = 'waiting' | 'validating' | 'verified' | 'failed';
type TSshStatus = 'pending' | 'validating' | 'verified' | 'failed';
type TDeployStatus = 'idle' | 'deploying' | 'completed' | 'failed';

export type TWizardState = {
  step: TWizardStep;
  data: TWizardData;
  /**
   * runId tells a stale answer (from before a Retry or an edit) from the current one. Errors are
   * texts (keys and values), rendered in the language on screen when shown.
   */
  dns: {
    status: TDnsStatus;
    runId: number;
    result: TDnsValidationResult | null;
    error: TText | null;
  };
  ssh: { status: TSshStatus; result: TSshTestResult | null; error: TText | null };
  deploy: {
    status: TDeployStatus;
    deploymentId: string | null;
    logs: TLogLine[];
    /** Why the run failed, rendered in the current language. */
    error: TText | null;
  };
  /** The saved configuration's status on the server, when known. */
  configStatus: TProxyStatus | null;
  /**
   * The dns.runId the last run (started here, or found on resuming) went with: while it is still
   * the current one, nothing was checked since and that run's failure speaks for the checks.
   */
  runChecksId: number | null;
};

export type TServerInfo = Pick<
  TWizardData,
  'serverIp' | 'domain' | 'sshUser' | 'sshPort' | 'sshPassword' | 'email'
> & { sshServerId?: string | null };

export type TWizardAction =
  | { type: 'serverInfoSubmitted'; info: TServerInfo }
  | { type: 'next' }
  | { type: 'back' }
  | { type: 'goTo'; step: TWizardStep }
  | { type: 'restart' }
  | { type: 'resumed'; config: TProxyConfiguration }
  | { type: 'validationRestarted' }
  | { type: 'certificateChanged'; certificate: TCertificateChoice }
  | { type: 'dnsStarted'; runId: number }
  | { type: 'dnsFinished'; runId: number; result: TDnsValidationResult }
  | { type: 'dnsErrored'; runId: number; message: TText | null }
  | { type: 'sshStarted'; runId: number }
  | { type: 'sshFinished'; runId: number; result: TSshTestResult }
  | { type: 'sshErrored'; runId: number; message: TText | null }
  | { type: 'targetChosen'; targetServer: string }
  | { type: 'configurationSaved'; id: string }
  | { type: 'deployStarted'; message: TText; at: string }
  | { type: 'deployAccepted'; deploymentId: string }
  | { type: 'deployRequestFailed'; message: TText; at: string }
  | { type: 'logsReceived'; lines: TLogLine[] }
  | {
      type: 'statusReceived';
      status: TProxyStatus;
      deploymentId: string | null;
      messages: { completed: TText; failed: TText };
      at: string;
    };
