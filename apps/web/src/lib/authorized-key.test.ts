import { describe, expect, it } from 'vitest';
import { authorizeKeyCommand } from './authorized-key';

describe('authorizeKeyCommand', () => {
  it('appends the exact line, quoted, and sets the modes sshd wants', () => {
    const line = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB0+/x= portico-1a2b3c4d';
    expect(authorizeKeyCommand(line)).toBe(
      `mkdir -p ~/.ssh && chmod 700 ~/.ssh && echo '${line}' >> ~/.ssh/authorized_keys && chmod 600 ~/.ssh/authorized_keys`,
    );
  });

  it.each(["ssh-ed25519 AAAA x'; rm -rf ~; echo '", 'ssh-ed25519 AAAA $(id)', 'not a key'])(
    'offers no command for %s',
    (line) => {
      expect(authorizeKeyCommand(line)).toBeNull();
    },
  );
});
