import { copyFileSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import {
  decryptSecret,
  encryptSecret,
  newSecretKey,
  SecretDecryptError,
  writeKeyFile,
} from '../../lib/secrets';
import {
  storedSecretAad as aadOf,
  type TSecretsRepository,
  type TStoredSecret,
} from './secrets.repository';

export class SecretRotationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretRotationError';
  }
}

export interface TRotationResult {
  rotated: number;
  previousKeyFile: string;
  /** A rotation interrupted earlier was completed instead of starting a new one. */
  resumed: boolean;
}

/** What a value that does not decrypt is called in the refusal. */
function describe(secret: TStoredSecret): string {
  if (secret.kind === 'proxy') {
    return `The stored SSH password of ${secret.label} (configuration ${secret.id})`;
  }
  if (secret.kind === 'sshServer') {
    return `The ${secret.server?.field} of the saved server ${secret.label} (server ${secret.id})`;
  }
  if (secret.kind === 'customCertificate') {
    return `The private key of the certificate uploaded for ${secret.label} (configuration ${secret.id})`;
  }
  if (secret.kind === 'dnsChallenge') {
    return `The DNS provider credentials of ${secret.label} (configuration ${secret.id})`;
  }
  if (secret.kind === 'webhook') {
    return `The alert webhook URL of the account ${secret.label} (user ${secret.id})`;
  }
  return `The two-factor secret of the account ${secret.label} (user ${secret.id})`;
}

function decryptsAll(key: Buffer, secrets: TStoredSecret[]): TStoredSecret | undefined {
  for (const secret of secrets) {
    try {
      decryptSecret(key, secret.stored, aadOf(secret));
    } catch (error) {
      if (error instanceof SecretDecryptError) return secret;
      throw error;
    }
  }
  return undefined;
}

/**
 * Re-encrypts every stored secret with a new key. Crash-safe order: the new key is written to
 * `<key>.next` and flushed first; the database switches in one transaction; only then does
 * `<key>.next` replace the key file (the old key is kept as `<key>.previous`). A run that finds
 * a `.next` left by an interrupted rotation finishes it if the database already uses that key.
 */
export async function rotateSecretKey(
  keyFile: string,
  repository: TSecretsRepository,
): Promise<TRotationResult> {
  const nextFile = `${keyFile}.next`;
  const previousKeyFile = `${keyFile}.previous`;
  if (!existsSync(keyFile)) {
    throw new SecretRotationError(
      `There is no key file at ${keyFile}: nothing was encrypted with it yet, or it is lost (restore it from a backup first).`,
    );
  }
  const oldKey = readFileSync(keyFile);
  const secrets = await repository.listSecrets();

  if (existsSync(nextFile)) {
    const pendingKey = readFileSync(nextFile);
    if (secrets.length > 0 && !decryptsAll(pendingKey, secrets)) {
      copyFileSync(keyFile, previousKeyFile);
      renameSync(nextFile, keyFile);
      return { rotated: secrets.length, previousKeyFile, resumed: true };
    }
    // The database never switched: that rotation did not happen; start again.
    rmSync(nextFile);
  }

  const unreadable = decryptsAll(oldKey, secrets);
  if (unreadable) {
    throw new SecretRotationError(
      `${describe(unreadable)} does not decrypt with ${keyFile}: the key file is not the one the database was written with, or the value was altered. Nothing was changed.`,
    );
  }
  const newKey = newSecretKey();
  const changes = secrets.map((secret) => ({
    kind: secret.kind,
    id: secret.id,
    server: secret.server,
    previous: secret.stored,
    next: encryptSecret(newKey, decryptSecret(oldKey, secret.stored, aadOf(secret)), aadOf(secret)),
  }));
  writeKeyFile(nextFile, newKey);
  try {
    await repository.replaceSecrets(changes);
  } catch (error) {
    rmSync(nextFile, { force: true });
    throw error;
  }
  copyFileSync(keyFile, previousKeyFile);
  renameSync(nextFile, keyFile);
  return { rotated: changes.length, previousKeyFile, resumed: false };
}
