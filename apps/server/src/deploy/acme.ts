/** certbot's default CA, Portico's default ACME directory; a dry run against it uses staging. */
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

/**
 * An ACME profile's name (Let's Encrypt's `classic`, `tlsserver`, `shortlived`), passed to
 * certbot as an argument: letters, digits, dots, dashes and underscores only.
 */
export const ACME_PROFILE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * External Account Binding (RFC 8555 §7.3.4), which ZeroSSL and Google Trust Services require:
 * the key id the CA gave (letters, digits, `.`, `_`, `-`) and its HMAC key (base64url, padding
 * allowed). Both are allowlisted here and written to certbot's config file, never put in a
 * command line.
 */
export const ACME_EAB_KID_PATTERN = /^[A-Za-z0-9._-]{1,256}$/;
export const ACME_EAB_HMAC_PATTERN = /^[A-Za-z0-9_-]{16,1024}={0,2}$/;

export interface TAcmeEab {
  kid: string;
  /** Secret: never logged, shown or passed as an argument. */
  hmacKey: string;
}
