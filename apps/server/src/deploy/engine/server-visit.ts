import type { TSshSession } from '../ssh';
import { connectStep, type TConnectInput } from './connect-step';
import { detectOs } from './detect-os';
import type { EngineLog } from './logger';
import type { TStepContext } from './step-context';
import type { TEngineContext } from './types';

/**
 * A short errand on a server (a certificate action, a site's removal): log in and read the
 * system (step 1), then the caller's own steps. `step` names where it is for the failure; the
 * SSH session closes when the run's signal aborts, and at `close()`.
 */
export class ServerVisit {
  private current = 'validate';
  session: TSshSession | undefined;
  private readonly onAbort = () => this.session?.close();

  constructor(
    private readonly ctx: TEngineContext,
    private readonly log: EngineLog,
  ) {
    ctx.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  get step(): string {
    return this.current;
  }

  set step(step: string) {
    this.current = step;
    this.ctx.onStep?.(step);
  }

  /** Connects, proves root and reads the OS: the context the caller's steps run in. */
  async open(input: TConnectInput): Promise<TStepContext & { session: TSshSession }> {
    this.step = 'connect';
    const { session } = await connectStep(input, this.ctx, this.log);
    this.session = session;
    if (this.ctx.signal?.aborted) session.close();
    this.step = 'detect-os';
    const server = await detectOs(session, this.log);
    const { settings, signal } = this.ctx;
    return { session, log: this.log, settings, signal, server };
  }

  close(): void {
    this.ctx.signal?.removeEventListener('abort', this.onAbort);
    this.session?.close();
  }
}
