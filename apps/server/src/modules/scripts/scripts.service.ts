import { AppError } from '../../lib/app-error';
import type { TScriptFile } from './script-file';
import type { TScriptsRepository } from './scripts.repository';

export type TScriptsService = ReturnType<typeof createScriptsService>;

export function createScriptsService(repository: TScriptsRepository) {
  return {
    /** Stores a checked script on the caller's own configuration (404 when it is not theirs). */
    async attach(userId: string, configurationId: string, script: TScriptFile): Promise<void> {
      const saved = await repository.saveOnOwnConfiguration(userId, configurationId, script);
      if (!saved) throw new AppError('not_found', 404);
    },
  };
}
