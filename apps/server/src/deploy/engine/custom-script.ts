import { randomBytes } from 'node:crypto';
import { SshError } from '../ssh';
import { StepError, withOutput } from './failure';
import { msg, quantity } from './messages';
import { asRoot, outputOf, type TStepContext } from './step-context';

const MAX_SCRIPT_BYTES = 64 * 1024;
const SCRIPT_TIMEOUT_MS = 10 * 60_000;

// The script runs as root from a private directory; the domain and target reach it as
// environment variables, and the file is removed whatever happens.
const RUN = `f=$1
trap 'rm -f -- "$f"' EXIT
cd /tmp && PORTICO_DOMAIN=$2 PORTICO_TARGET=$3 bash "$f" 2>&1`;

/** Step 7a: the user's uploaded script, last on the server; never run on the Portico host. */
export async function customScriptStep(
  c: TStepContext,
  script: string,
  env: { domain: string; target: string },
): Promise<void> {
  if (Buffer.byteLength(script, 'utf8') > MAX_SCRIPT_BYTES) {
    throw new StepError('invalid_input', 'custom-script', msg('script.tooLarge'));
  }
  const path = `/tmp/portico-script-${randomBytes(8).toString('hex')}.sh`;
  c.log.info(msg('script.uploading'));
  // A script saved on Windows would fail on its first line ($'\r': command not found).
  await c.session.writeFile(path, script.replace(/\r\n/g, '\n'), 0o700);
  const r = await asRoot(c.session, RUN, {
    args: [path, env.domain, env.target],
    onLine: c.log.stream('script'),
    timeoutMs: SCRIPT_TIMEOUT_MS,
  }).catch((error: unknown) => {
    if (error instanceof SshError && error.code === 'timeout') {
      throw new StepError(
        'custom_script_failed',
        'custom-script',
        msg('script.timeout', { minutes: quantity(SCRIPT_TIMEOUT_MS / 60_000) }),
      );
    }
    throw error;
  });
  if (r.code !== 0) {
    throw new StepError(
      'custom_script_failed',
      'custom-script',
      withOutput(msg('script.exited', { code: String(r.code) }), outputOf(r)),
    );
  }
  c.log.success(msg('script.done'));
}
