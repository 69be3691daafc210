/** certbot's default CA, Portico's default ACME directory; a dry run against it uses staging. */
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';
