/**
 * The one line a user runs on the server to let Portico's generated key in: it appends the
 * `authorized_keys` line (in single quotes, so the shell takes it as it is) and sets the modes
 * sshd insists on. Null for a line that is not one Portico makes (a quote would end the
 * quoting), so no command is offered that would run something else.
 */
export function authorizeKeyCommand(publicKey: string): string | null {
  if (!/^ssh-[a-z0-9-]+ [A-Za-z0-9+/=]+( [\w.@-]+)?$/.test(publicKey)) return null;
  return `mkdir -p ~/.ssh && chmod 700 ~/.ssh && echo '${publicKey}' >> ~/.ssh/authorized_keys && chmod 600 ~/.ssh/authorized_keys`;
}
