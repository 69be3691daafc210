import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The key that signs session cookies: PORTICO_SESSION_SECRET when set, else a random value
 * generated once into `<dataDir>/session.secret` (mode 0600) so restarts keep users signed in.
 */
export function loadOrCreateSessionSecret(path: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (existing.length >= 32) return existing;
    throw new Error(`${path} holds fewer than 32 characters; delete it to generate a new one`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  try {
    const fd = openSync(path, 'wx', 0o600);
    writeSync(fd, `${secret}\n`);
    closeSync(fd);
    return secret;
  } catch (error) {
    // Another process created it between our read and our write: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateSessionSecret(path);
    throw error;
  }
}
