import { AppError, KeyedAppError, type TMessage } from '../../lib/app-error';
import { decodeScript, nameProblem, type TScriptFile } from './script-file';

export type TScriptsService = ReturnType<typeof createScriptsService>;

/** The uploaded file as the route received it, not yet read. */
export interface TScriptUpload {
  filename: string;
  /** Its bytes, or 'too_large' when it ran past MAX_SCRIPT_BYTES while read. */
  read(): Promise<Buffer | 'too_large'>;
  /** Drains the file unread, so the request ends. */
  skip(): void;
}

/** Where an accepted script goes: a configuration of the caller's, or the session alone. */
export type TScriptTarget =
  | { configurationId: string }
  | { keepPending(script: TScriptFile): void };

export const refuseScript = (message: TMessage) =>
  new KeyedAppError('script_rejected', 400, message.key, message.params);

/** Where a script is stored: the proxies module's own write (its table), handed in by services.ts. */
export interface TScriptsDeps {
  /** Stores the script on the caller's own configuration; false when it is not theirs. */
  saveOnOwnConfiguration(userId: string, id: string, script: TScriptFile): Promise<boolean>;
}

export function createScriptsService(deps: TScriptsDeps) {
  /** Stores a checked script on the caller's own configuration (404 when it is not theirs). */
  async function attach(userId: string, configurationId: string, script: TScriptFile) {
    const saved = await deps.saveOnOwnConfiguration(userId, configurationId, script);
    if (!saved) throw new AppError('not_found', 404);
  }

  return {
    /** Checks the name, then the bytes (size, UTF-8 text), and keeps the script at `target`. */
    async upload(userId: string, upload: TScriptUpload, target: TScriptTarget) {
      const problem = nameProblem(upload.filename);
      if (problem) {
        upload.skip();
        throw refuseScript(problem);
      }
      const bytes = await upload.read();
      if (bytes === 'too_large') throw refuseScript({ key: 'checks.script.tooLarge' });
      const decoded = decodeScript(bytes);
      if ('problem' in decoded) throw refuseScript(decoded.problem);
      const script = { name: upload.filename, content: decoded.text };
      if ('configurationId' in target) await attach(userId, target.configurationId, script);
      else target.keepPending(script);
      return { filename: script.name };
    },
  };
}
