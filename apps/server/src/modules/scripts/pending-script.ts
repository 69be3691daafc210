import type { FastifyRequest } from 'fastify';
import type { TScriptFile } from './script-file';

declare module 'fastify' {
  interface Session {
    /** A script uploaded before its configuration exists; moved onto the row when saved. */
    pendingScript?: TScriptFile;
  }
}

export function keepPendingScript(request: FastifyRequest, script: TScriptFile): void {
  request.session.pendingScript = script;
}

/**
 * The script uploaded in this session without a configurationId, removed from the session.
 * The proxies module calls it when it saves a configuration and stores the result as
 * customScriptName / customScript.
 */
export function takePendingScript(request: FastifyRequest): TScriptFile | undefined {
  const script = request.session?.pendingScript;
  if (!script) return undefined;
  request.session.pendingScript = undefined;
  return script;
}
