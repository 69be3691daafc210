import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import type { TSshServerRow } from '../../db/schema';

/** The API view: secrets only as whether one is saved (docs/SECURITY.md). */
export function toSshServer(row: TSshServerRow, owner: string, proxyCount: number): TSshServer {
  return {
    id: row.id,
    userId: row.userId,
    owner,
    name: row.name,
    host: row.host,
    port: row.port,
    username: row.username,
    authKind: row.authKind,
    hasPassword: row.passwordEnc !== null,
    hasPrivateKey: row.privateKeyEnc !== null,
    hasPassphrase: row.passphraseEnc !== null,
    hasSudoPassword: row.sudoPasswordEnc !== null,
    publicKey: row.publicKey,
    hostKeyFingerprint: row.hostKeyFingerprint,
    description: row.description,
    isActive: row.isActive,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    reachable: row.reachable,
    facts: row.facts,
    proxyCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
