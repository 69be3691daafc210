import type { TLanguage } from '@portico/shared/api-error';
import { describe, expect, it } from 'vitest';
import { EngineLog } from './logger';
import { say } from './messages';
import { onServer } from './server-address';
import { LOCK_LOST, type TEngineContext, type TSharedLocks } from './types';

// A work that ignores its abort (a hung promise) is let go after the lock's grace: the run then
// fails in onServer, which must still say why it stopped and at which step.

/** Shared locks that are always free; `lose()` drops the one held, as a dropped connection does. */
function losableLocks() {
  const lost = new AbortController();
  const locks: TSharedLocks = {
    acquire: async () => Object.assign(async () => {}, { lost: lost.signal }),
  };
  return { locks, lose: () => lost.abort(LOCK_LOST) };
}

function engineContext(sharedLocks?: TSharedLocks, signal?: AbortSignal, lang: TLanguage = 'en') {
  const lines: string[] = [];
  const ctx: TEngineContext = {
    settings: { acmeDirectoryUrl: 'https://acme.invalid/dir', allowLoopback: true, sharedLocks },
    log: () => undefined,
    signal,
  };
  const log = new EngineLog((_level, message) => void lines.push(message), lang);
  return { ctx, log, lines };
}

const input = { serverIp: '127.0.0.1', sshPort: 22 };

/** Enters `step`, tells `started`, then never settles and ignores every abort. */
function hangAt(step: string, started: () => void) {
  return async (_input: typeof input, ctx: TEngineContext) => {
    ctx.onStep?.(step);
    started();
    return new Promise<never>(() => {});
  };
}

describe('onServer, when the work ignores its abort', () => {
  it('a lost server lock: the run fails as stopped for it, at the step it reached', async () => {
    const { locks, lose } = losableLocks();
    const { ctx, log, lines } = engineContext(locks);
    const outcome = onServer(input, ctx, log, hangAt('certificate', lose));
    const expected = say('en', 'failure.lockLost', { step: 'certificate' });
    await expect(outcome).resolves.toMatchObject({
      status: 'failed',
      failure: { code: 'cancelled', step: 'certificate', message: expected },
    });
    expect(lines.at(-1)).toBe(expected);
  });

  it('a cancel: the run fails as cancelled at the step it reached, in the run language', async () => {
    const controller = new AbortController();
    const { ctx, log, lines } = engineContext(undefined, controller.signal, 'es');
    const outcome = onServer(
      input,
      ctx,
      log,
      hangAt('packages', () => controller.abort()),
    );
    const expected = say('es', 'failure.cancelledDuring', { step: 'packages' });
    await expect(outcome).resolves.toMatchObject({
      status: 'failed',
      failure: { code: 'cancelled', step: 'packages', message: expected },
    });
    expect(lines.at(-1)).toBe(expected);
  });
});
