/**
 * The hidden e-mail follows the domain while it is empty or still an admin@ address the
 * wizard made; an address the user (or a resumed configuration) chose is kept.
 */
export function autoFillEmail(domain: string, currentEmail: string): string {
  const email = currentEmail.trim();
  if (email !== '' && !email.toLowerCase().startsWith('admin')) return currentEmail;
  // A wildcard's mail goes to its domain: `*.example.com` has no mailbox.
  const host = domain.trim().toLowerCase().replace(/^\*\./, '');
  return host === '' ? '' : `admin@${host}`;
}
