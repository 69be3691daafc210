// The contract between the deployment engine (this folder) and its callers (the deploy job, the
// delete service). The engine knows nothing of the database, queues or sockets: it receives
// validated values and secrets in clear, reports through `log`, and returns an outcome.
import type { TLanguage } from '@portico/shared/api-error';
import type { TLogLevel } from '@portico/shared/proxy/schemas';

export type TSshAuth = { password: string } | { privateKey: string; passphrase?: string };

export interface TDeployInput {
  domain: string;
  serverIp: string;
  sshPort: number;
  sshUser: string;
  auth: TSshAuth;
  /** Pinned `SHA256:…` fingerprint; undefined on first contact (trust on first use). */
  expectedFingerprint?: string;
  /** Certificate registration e-mail. */
  email: string;
  /** Raw target as stored; the engine normalises and validates it again. */
  targetServer: string;
  /** The uploaded custom script, run last on the server; never on the Portico host. */
  customScript?: string;
}

export interface TEngineSettings {
  acmeDirectoryUrl: string;
  /** Extra CA bundle (PEM path) trusted by the verification step, e.g. a test CA root. */
  extraCaFile?: string;
  /** Resolvers used by the preflight DNS check, host[:port]; system resolvers when empty. */
  dnsServers?: string[];
  /** Extra CA bundle certbot on the server must trust (test ACME servers only). */
  acmeCaBundleOnServer?: string;
  /** Language of Portico's own log lines and failure messages; tool output stays verbatim. */
  language?: TLanguage;
}

export type TLogSink = (level: TLogLevel, message: string) => void | Promise<void>;

export interface TEngineContext {
  settings: TEngineSettings;
  log: TLogSink;
  /** Aborted when the job is cancelled or the app shuts down. */
  signal?: AbortSignal;
  /** Called once the host key is known, so the caller can pin it before anything else runs. */
  onHostKey?: (fingerprint: string) => void | Promise<void>;
}

/** Why a run failed, in a stable code plus plain words (already including the tool's output). */
export type TDeployFailureCode =
  | 'invalid_input'
  | 'tcp_connect'
  | 'timeout'
  | 'host_key_mismatch'
  | 'auth_failed'
  | 'sudo_refused'
  | 'unsupported_os'
  | 'port_in_use'
  | 'disk_full'
  | 'dns_mismatch'
  | 'package_install_failed'
  | 'nginx_config_invalid'
  | 'certbot_failed'
  | 'custom_script_failed'
  | 'verification_failed'
  | 'connection_lost'
  | 'cancelled'
  | 'internal';

export interface TDeployFailure {
  code: TDeployFailureCode;
  /** The step that failed, e.g. 'connect', 'preflight', 'certificate'. */
  step: string;
  message: string;
}

export type TDeployOutcome =
  | {
      status: 'completed';
      hostKeyFingerprint: string;
      nginxConfigPath: string;
      sslConfigured: true;
      certificateExpiresAt: Date;
      /** Non-fatal findings, e.g. the upstream answered 502. */
      warnings: string[];
    }
  | { status: 'failed'; hostKeyFingerprint?: string; failure: TDeployFailure };

export interface TRemoveInput
  extends Omit<TDeployInput, 'email' | 'targetServer' | 'customScript'> {
  /** Also delete the certificate (certbot delete); default keeps it. */
  removeCertificate?: boolean;
}

export type TRemoveOutcome = { status: 'removed' } | { status: 'failed'; failure: TDeployFailure };
