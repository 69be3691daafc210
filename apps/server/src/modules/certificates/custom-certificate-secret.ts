import { secretAad } from '../../lib/secrets';

/**
 * The additional data an uploaded certificate's private key is sealed with: the proxy it is for,
 * so a ciphertext copied to another proxy's row does not decrypt (the key rotation uses it too).
 */
export function customCertificateKeyAad(configurationId: string): string {
  return secretAad('custom-certificate', configurationId, 'privateKey');
}
