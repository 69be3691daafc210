// takePendingScript: hands the session's pending script over once and leaves the session clean.
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { keepPendingScript, takePendingScript } from './pending-script';

function requestWithSession(): FastifyRequest {
  return { session: {} } as unknown as FastifyRequest;
}

describe('takePendingScript', () => {
  it('returns the kept script once, then nothing', () => {
    const request = requestWithSession();
    expect(takePendingScript(request)).toBeUndefined();
    keepPendingScript(request, { name: 'a.sh', content: 'echo a\n' });
    keepPendingScript(request, { name: 'b.sh', content: 'echo b\n' });
    expect(takePendingScript(request)).toEqual({ name: 'b.sh', content: 'echo b\n' });
    expect(takePendingScript(request)).toBeUndefined();
    expect(request.session.pendingScript).toBeUndefined();
  });
});
