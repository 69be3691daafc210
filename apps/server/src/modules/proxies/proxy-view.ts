import type { TLanguage } from '@portico/shared/api-error';
import { renderText } from '@portico/shared/i18n/text';
import type { TLastFailure, TProxyConfiguration, TProxySshAuth } from '@portico/shared/proxy/api';
import type { TDeployedSnapshot, TProxyConfigurationRow, TStoredFailure } from '../../db/schema';
import { isoTime } from '../../lib/iso-time';
import { passwordBoundTo } from '../ssh-servers/server-credentials';
import { optionsView } from './proxy-options';

export function snapshotOf(row: TProxyConfigurationRow): TDeployedSnapshot | null {
  if (!row.targetServer) return null;
  return {
    domain: row.domain,
    targetServer: row.targetServer,
    serverIp: row.serverIp,
    sshPort: row.sshPort,
    sshUser: row.sshUser,
    options: row.options,
  };
}

/** JSON with object keys sorted: jsonb does not keep the order a value was written with. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** A configuration never deployed has nothing on the server to differ from. */
export function changedSinceDeploy(row: TProxyConfigurationRow): boolean {
  const deployed = row.deployedSnapshot;
  if (!deployed) return false;
  const current = snapshotOf(row);
  if (!current) return true;
  // Field by field: jsonb does not keep the key order the snapshot was written with.
  return (Object.keys(current) as (keyof TDeployedSnapshot)[]).some((key) =>
    key === 'options'
      ? canonical(deployed.options ?? {}) !== canonical(current.options ?? {})
      : deployed[key] !== current[key],
  );
}

/** The stored failure with its message in `language`. */
export function lastFailureOf(
  stored: TStoredFailure | null,
  language: TLanguage,
): TLastFailure | null {
  if (!stored) return null;
  return { ...stored, message: renderText(language, stored.text) };
}

/**
 * What a deployment would log in with, in the credentials rule's order: the proxy's own password
 * for where it points, else its saved server's (a proxy is put on a server only where the server
 * is: proxy-servers.ts), else nothing.
 */
export function sshAuthOf(row: TProxyConfigurationRow): TProxySshAuth {
  if (passwordBoundTo(row, row)) return 'password';
  return row.sshServerId ? 'server' : 'none';
}

/**
 * The API view of a row: secrets appear only as whether one is stored; the last failure in the
 * reader's language.
 */
/** An adopted site's file; its text only when asked (a single read, not the lists). */
function adoptionOf(row: TProxyConfigurationRow, withFile: boolean) {
  if (row.origin !== 'adopted') return {};
  return {
    adoption: {
      file: row.adoptedFile ?? '',
      sha256: row.adoptedSha256 ?? '',
      ...(withFile ? { fileText: row.adoptedFileText ?? '' } : {}),
      changedAt: row.adoptedChangedAt ? isoTime(row.adoptedChangedAt) : null,
      missingAt: row.adoptedMissingAt ? isoTime(row.adoptedMissingAt) : null,
    },
  };
}

export function toProxyConfiguration(
  row: TProxyConfigurationRow,
  language: TLanguage,
  options: { withFile?: boolean } = {},
): TProxyConfiguration {
  return {
    id: row.id,
    userId: row.userId,
    domain: row.domain,
    serverIp: row.serverIp,
    sshPort: row.sshPort,
    sshUser: row.sshUser,
    // Only a password that may be presented to where the configuration points counts.
    hasSshPassword: passwordBoundTo(row, row),
    sshServerId: row.sshServerId,
    sshAuth: sshAuthOf(row),
    email: row.email,
    targetServer: row.targetServer,
    options: optionsView(row.options),
    status: row.status,
    sslConfigured: row.sslConfigured,
    nginxConfigPath: row.nginxConfigPath,
    hostKeyFingerprint: row.hostKeyFingerprint,
    certificateExpiresAt: row.certificateExpiresAt ? isoTime(row.certificateExpiresAt) : null,
    lastDeployedAt: row.lastDeployedAt ? isoTime(row.lastDeployedAt) : null,
    changedSinceDeploy: changedSinceDeploy(row),
    serverSites: row.serverSites,
    lastFailure: lastFailureOf(row.lastFailure, language),
    customScriptName: row.customScriptName,
    ...adoptionOf(row, options.withFile ?? false),
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}
