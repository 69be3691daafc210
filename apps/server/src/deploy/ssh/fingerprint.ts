import { createHash } from 'node:crypto';

/** `SHA256:<unpadded base64>` of the raw host key blob, exactly as `ssh-keygen -lf` prints it. */
export function fingerprintOf(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}
