import { createInterface } from 'node:readline';

async function readAll(stream: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

function promptHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    // Echo nothing while typing: the password must not stay on screen or in scrollback.
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    process.stderr.write(question);
    output._writeToOutput = () => {};
    rl.question('', (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}

/**
 * The password for a command: typed twice at a terminal, else the first line of stdin (so
 * scripts can pipe it: `printf '%s\n' "$PW" | portico user create ...`). Never an argument:
 * arguments show up in `ps` and shell history.
 */
export async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const text = await readAll(process.stdin);
    return text.split(/\r?\n/, 1)[0] ?? '';
  }
  const first = await promptHidden('Password: ');
  const second = await promptHidden('Repeat password: ');
  if (first !== second) throw new Error('The passwords do not match.');
  return first;
}
