/** certbot's default CA, Portico's default ACME directory; a dry run against it uses staging. */
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

/**
 * An ACME profile's name (Let's Encrypt's `classic`, `tlsserver`, `shortlived`), passed to
 * certbot as an argument: letters, digits, dots, dashes and underscores only.
 */
export const ACME_PROFILE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
