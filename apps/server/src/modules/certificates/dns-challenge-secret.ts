import { secretAad } from '../../lib/secrets';

/**
 * The additional data a proxy's DNS provider credentials are sealed with: the proxy and the
 * server address they were entered for. A ciphertext copied to another row, or a proxy moved to
 * another server, does not decrypt: the credentials are presented to that one server alone
 * (the key rotation uses it too).
 */
export function dnsChallengeAad(configurationId: string, serverIp: string): string {
  return secretAad('dns-challenge', configurationId, `credentials@${serverIp}`);
}
