import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { proxyConfigurations } from '../../db/schema';
import type { TScriptFile } from './script-file';

export type TScriptsRepository = ReturnType<typeof createScriptsRepository>;

export function createScriptsRepository(db: TDb) {
  return {
    /** Stores the script on the caller's own configuration; false when it is not theirs. */
    async saveOnOwnConfiguration(userId: string, id: string, script: TScriptFile) {
      const rows = await db
        .update(proxyConfigurations)
        .set({ customScriptName: script.name, customScript: script.content, updatedAt: new Date() })
        .where(and(eq(proxyConfigurations.id, id), eq(proxyConfigurations.userId, userId)))
        .returning({ id: proxyConfigurations.id });
      return rows.length > 0;
    },
  };
}
