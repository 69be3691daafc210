import type { FastifyRequest } from 'fastify';
import type { TScriptFile } from './script-file';

declare module 'fastify' {
  interface Session {
    /**
     * A script uploaded without a configurationId: kept in the session only, as
     * docs/PRODUCT.md#custom-deployment-script says; nothing reads it back (the wizard uploads
     * after saving, with the id).
     */
    pendingScript?: TScriptFile;
  }
}

export function keepPendingScript(request: FastifyRequest, script: TScriptFile): void {
  request.session.pendingScript = script;
}
