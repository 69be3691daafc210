/**
 * The one function that turns a value into a POSIX shell word. Everything a remote script needs
 * from the user travels either as a file (SFTP) or as an argument quoted here — never spliced
 * into script text by hand.
 *
 * Single quotes keep every byte literal in sh and bash (no expansion, no escapes); the only
 * character that cannot appear inside them is the quote itself, written as '\'' (close, escaped
 * quote, reopen). NUL cannot be carried by any shell word or argv entry, so it is refused rather
 * than silently truncating the value.
 */
export class ShellQuoteError extends Error {
  readonly code = 'shell_quote';
  constructor(message: string) {
    super(message);
    this.name = 'ShellQuoteError';
  }
}

export function shellQuote(value: string): string {
  if (typeof value !== 'string') throw new ShellQuoteError('Only strings can be shell-quoted.');
  if (value.includes('\0')) throw new ShellQuoteError('A shell argument cannot contain NUL.');
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Several arguments as one space-separated list of quoted words. */
export function shellQuoteAll(values: readonly string[]): string {
  return values.map(shellQuote).join(' ');
}
