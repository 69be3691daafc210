/**
 * The hidden e-mail follows the domain while it is empty or still an admin@ address the
 * wizard made; an address the user (or a resumed configuration) chose is kept.
 */
export function autoFillEmail(domain: string, currentEmail: string): string {
  const email = currentEmail.trim();
  if (email !== '' && !email.toLowerCase().startsWith('admin')) return currentEmail;
  const host = domain.trim().toLowerCase();
  return host === '' ? '' : `admin@${host}`;
}
