import type { Command } from 'commander';
import { loadConfig } from '../config';
import { createCertificateSecrets } from '../modules/certificates/certificate-secrets.repository';
import { createNotificationsRepository } from '../modules/notifications/notifications.repository';
import { createProxyCredentials } from '../modules/proxies/proxy-credentials.repository';
import { rotateSecretKey, SecretRotationError } from '../modules/secrets/secret-rotation';
import { createSecretsRepository } from '../modules/secrets/secrets.repository';
import { createServerReads } from '../modules/ssh-servers/server-reads.repository';
import { createUserSecrets } from '../modules/users/user-secrets.repository';
import type { TOpenedStore } from '../runtime';
import { CliError } from './user-commands';

type TOpenStore = () => Promise<TOpenedStore>;

export function registerSecretCommands(program: Command, open: TOpenStore) {
  const secrets = program
    .command('secrets')
    .description('the key that encrypts stored SSH passwords (docs/SECURITY.md)');

  secrets
    .command('rotate-key')
    .description('re-encrypt every stored secret with a new key; stop every Portico instance first')
    .action(async () => {
      const { secretKeyFile } = loadConfig();
      const store = await open();
      try {
        const result = await rotateSecretKey(
          secretKeyFile,
          createSecretsRepository(store.database.db, {
            proxies: createProxyCredentials,
            servers: createServerReads,
            notifications: createNotificationsRepository,
            certificates: createCertificateSecrets,
            users: createUserSecrets,
          }),
        );
        const what = result.resumed ? 'finished an interrupted rotation:' : 'rotated';
        console.info(
          `${what} ${result.rotated} secret(s) now use the new key in ${secretKeyFile}. ` +
            `The previous key is kept at ${result.previousKeyFile}: delete it once a backup ` +
            'holds the new key.',
        );
      } catch (error) {
        if (error instanceof SecretRotationError) throw new CliError(error.message);
        throw error;
      } finally {
        await store.close();
      }
    });
}
