import type { TDatabase } from '../../src/db/client';
import { decryptSecret, loadOrCreateKey } from '../../src/lib/secrets';
import { createCertificateSecrets } from '../../src/modules/certificates/certificate-secrets.repository';
import { createNotificationsRepository } from '../../src/modules/notifications/notifications.repository';
import { createProxyCredentials } from '../../src/modules/proxies/proxy-credentials.repository';
import {
  createSecretsRepository,
  storedSecretAad,
} from '../../src/modules/secrets/secrets.repository';
import { createServerReads } from '../../src/modules/ssh-servers/server-reads.repository';
import { createUserSecrets } from '../../src/modules/users/user-secrets.repository';

/** Every secret the store holds, decrypted with the key in `keyFile` (throws if one does not). */
export async function decryptedSecrets(database: TDatabase, keyFile: string): Promise<string[]> {
  const key = loadOrCreateKey(keyFile);
  const secrets = await createSecretsRepository(database.db, {
    proxies: createProxyCredentials,
    servers: createServerReads,
    notifications: createNotificationsRepository,
    certificates: createCertificateSecrets,
    users: createUserSecrets,
  }).listSecrets();
  return secrets.map((s) => decryptSecret(key, s.stored, storedSecretAad(s)));
}
