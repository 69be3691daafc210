// The contract between the deployment engine (this folder) and its callers (the deploy job, the
// delete service). The engine knows nothing of the database, queues or sockets: it receives
// validated values and secrets in clear, reports through `log`, and returns an outcome.
import type { TLanguage } from '@portico/shared/api-error';
import type { TDnsCredentials } from '@portico/shared/certificates/dns-challenge';
import type {
  TCertificateAction,
  TCertificateFacts,
  TRenewalHealth,
} from '@portico/shared/certificates/schemas';
import type { TText } from '@portico/shared/i18n/text';
import type { TProxyOptions } from '@portico/shared/proxy/options';
import type { TLogLevel } from '@portico/shared/proxy/schemas';
import type { TAcmeEab } from '../acme';

/** The proxy's own certificate (issue 41) as the deploy job hands it over: the key in clear. */
export interface TUploadedCertificate {
  /** PEM, leaf first (checked at upload: modules/certificates/custom-certificate-check.ts). */
  chainPem: string;
  privateKeyPem: string;
}

/** A certificate by DNS-01 (issue 41): the provider's credentials in clear, engine-side only. */
export interface TDnsChallenge {
  credentials: TDnsCredentials;
  /** With a wildcard domain: the certificate and the site also cover the name under it. */
  includeApex: boolean;
}

/**
 * The wildcard certificate another proxy holds on the same server (issue 41), served instead of
 * a certificate of the site's own: certbot's lineage of `domain` (`*.example.com`) under
 * /etc/letsencrypt/live, renewed by the holder's renewals.
 */
export interface TSharedWildcard {
  domain: string;
}

/** A password, or a private key (with the sudo password of a user whose sudo asks for one). */
export type TSshAuth =
  | { password: string }
  | { privateKey: string; passphrase?: string; sudoPassword?: string };

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
  /** The proxy's options as stored (shared/proxy/options.ts); checked again before rendering. */
  options?: TProxyOptions;
  /** The uploaded custom script, run last on the server; never on the Portico host. */
  customScript?: string;
  /**
   * The proxy's own certificate (issue 41), served instead of certbot's: written under
   * /etc/portico/certificates, and certbot not run for the domain. Without it a deployment
   * removes the files of an earlier upload once the site no longer names them.
   */
  uploadedCertificate?: TUploadedCertificate;
  /**
   * The certificate by DNS-01 through the provider's certbot plugin instead of HTTP-01: the only
   * way to a wildcard domain (`*.example.com`). Its credentials are written under
   * /etc/portico/dns/ for certbot's renewals and removed once no renewal names them.
   */
  dnsChallenge?: TDnsChallenge;
  /**
   * Served with this wildcard's certificate (a single label under it), checked on the server
   * before the site names it; certbot is not run for the domain. An upload comes first.
   */
  sharedWildcard?: TSharedWildcard;
  /**
   * Apply of a plan: the plan's fingerprint. Before anything is written (packages included) the
   * run reads the files again and stops with `server_changed` when they differ (plan-read.ts).
   */
  planFingerprint?: string;
}

export interface TEngineSettings {
  acmeDirectoryUrl: string;
  /** The ACME profile to ask for where the server's certbot supports profiles. */
  acmeProfile?: string;
  /** External Account Binding for the CA (PORTICO_ACME_EAB_*): the HMAC key is a secret. */
  acmeEab?: TAcmeEab;
  /** Extra CA bundle (PEM path) trusted by the verification step, e.g. a test CA root. */
  extraCaFile?: string;
  /** Resolvers used by the preflight DNS check, host[:port]; system resolvers when empty. */
  dnsServers?: string[];
  /** Extra CA bundle certbot on the server must trust (test ACME servers only). */
  acmeCaBundleOnServer?: string;
  /**
   * How long certbot's DNS plugins wait for the TXT record to be seen everywhere
   * (PORTICO_DNS_PROPAGATION_SECONDS); each plugin's own default without it.
   */
  dnsPropagationSeconds?: number;
  /** Language of Portico's own log lines and failure messages; tool output stays verbatim. */
  language?: TLanguage;
  /** Servers on 127.0.0.0/8 may be used (PORTICO_SSH_ALLOW_LOOPBACK: development and tests). */
  allowLoopback?: boolean;
  /** Advanced nginx lines of a proxy's options are rendered (PORTICO_ALLOW_CUSTOM_NGINX). */
  allowCustomNginx?: boolean;
  /**
   * The per-server lock as every instance on one database sees it (PostgreSQL); without it the
   * lock holds within this process only, which is all there is on PGlite.
   */
  sharedLocks?: TSharedLocks;
  /** The nginx dumps kept between runs (nginx-dump-cache.ts); without it each run reads its own. */
  dumps?: TKeptDumps;
}

/** Each server's last trusted nginx dump, by address and port (`NginxDumpCache`). */
export interface TKeptDumps {
  /** The arguments `KEPT_DUMP_PART` takes for this server. */
  args(at: string): string[];
  /** Keeps the dump a root script read and signed, or forgets a stale one. */
  keep(at: string, fingerprint: string, stdout: string): void;
  /** The dump kept for `at` if it is the one the server vouched for (`same`). */
  vouched(at: string, fingerprint: string, same: string): string | undefined;
}

/** Locks held across processes; a process that dies lets go of its own. */
export interface TSharedLocks {
  /**
   * Waits until `key` is free everywhere and takes it; `onWait` is called once if it is held
   * elsewhere. Rejects if `signal` aborts first. The answer lets the lock go.
   */
  acquire(key: string, signal: AbortSignal | undefined, onWait: () => void): Promise<THeldLock>;
}

/**
 * Lets a shared lock go; `lost` aborts (reason: `LOCK_LOST`) if the lock was lost while held
 * (its database connection dropped), when another process may take it at once.
 */
export type THeldLock = (() => Promise<void>) & { lost: AbortSignal };

/** The abort reason of a run whose server lock was lost while it held it. */
export const LOCK_LOST = Symbol('server lock lost');

/** A log line: `message` in the run's language, `text` what it says (see shared/i18n/text). */
export type TLogSink = (level: TLogLevel, message: string, text: TText) => void | Promise<void>;

/**
 * What is on the server for the domain being deployed or removed, as the engine wrote or last
 * saw it. Reported before each write (`unconfirmed`, the files about to be written included) and
 * after it from a look at the server, so a run that dies at any point leaves a record that holds
 * at least what is there.
 */
export interface TSiteState {
  domain: string;
  /** Portico's files for the domain: the site file, and its enabled link on Debian. */
  files: string[];
  enabled: boolean;
  /** The site file is the final HTTPS one. */
  https: boolean;
  certificate: { name: string; expiresAt: Date | null } | null;
  /** The proxy's uploaded certificate there (its chain file); absent when there is none. */
  uploaded?: { path: string; fingerprint: string | null; expiresAt: Date | null } | null;
  unconfirmed: boolean;
}

export interface TEngineContext {
  settings: TEngineSettings;
  log: TLogSink;
  /** Aborted when the job is cancelled or the app shuts down. */
  signal?: AbortSignal;
  /** Called once the host key is known, so the caller can pin it before anything else runs. */
  onHostKey?: (fingerprint: string) => void | Promise<void>;
  /**
   * Told what is on the server for the domain (see TSiteState), and awaited: the engine writes
   * nothing before the caller has recorded that it is about to. A throw stops the run.
   */
  onSite?: (state: TSiteState, hostKeyFingerprint: string) => void | Promise<void>;
  /** Told each step as the run enters it: a run stopped from outside still names where it was. */
  onStep?: (step: string) => void;
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
  | 'renewal_unavailable'
  | 'server_changed'
  | 'connection_lost'
  | 'cancelled'
  | 'internal';

export interface TDeployFailure {
  code: TDeployFailureCode;
  /** The step that failed, e.g. 'connect', 'preflight', 'certificate'. */
  step: string;
  /** In the run's language. */
  message: string;
  /** The same as a text, to show in any reader's language. */
  text: TText;
}

export type TDeployOutcome =
  | {
      status: 'completed';
      hostKeyFingerprint: string;
      nginxConfigPath: string;
      sslConfigured: true;
      certificateExpiresAt: Date;
      /** How the server renews the certificate, as found (or set up) after issuing it. */
      renewal: TRenewalHealth;
      /** Non-fatal findings, e.g. the upstream answered 502. */
      warnings: TText[];
      /** The uploaded certificate the site now serves, as the server holds it. */
      onServer?: TCertificateFacts;
    }
  | {
      status: 'failed';
      hostKeyFingerprint?: string;
      failure: TDeployFailure;
      /**
       * Set when the run failed at `renewal`, its last step: the site is served and verified,
       * and nothing renews its certificate.
       */
      served?: { nginxConfigPath: string; certificateExpiresAt: Date; renewal: TRenewalHealth };
    };

/** What only a deployment uses: a removal and a certificate action take the rest. */
type TDeployOnly =
  | 'email'
  | 'targetServer'
  | 'customScript'
  | 'uploadedCertificate'
  | 'dnsChallenge'
  | 'sharedWildcard';

export interface TRemoveInput extends Omit<TDeployInput, TDeployOnly> {
  /** Also delete the certificate (certbot delete); default keeps it. */
  removeCertificate?: boolean;
}

export type TRemoveOutcome = { status: 'removed' } | { status: 'failed'; failure: TDeployFailure };

/** "Test renewal" or "Renew now" for the proxy's certificate (certificate-actions.ts). */
export interface TCertificateActionInput extends Omit<TDeployInput, TDeployOnly> {
  action: TCertificateAction;
}

export type TCertificateActionOutcome =
  | {
      status: 'completed';
      hostKeyFingerprint: string;
      /** certbot's certificate on the server after the action. */
      onServer: TCertificateFacts | null;
    }
  | {
      status: 'failed';
      hostKeyFingerprint?: string;
      failure: TDeployFailure;
      onServer?: TCertificateFacts | null;
    };
