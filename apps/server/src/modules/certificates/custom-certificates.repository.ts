import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { customCertificates, type TCustomCertificateRow } from '../../db/schema';

export type TCustomCertificatesRepository = ReturnType<typeof createCustomCertificatesRepository>;

/** The uploaded certificates, one per proxy (docs/PRODUCT.md#your-own-certificate). */
export function createCustomCertificatesRepository(db: TDb) {
  return {
    async find(configurationId: string): Promise<TCustomCertificateRow | undefined> {
      const [row] = await db
        .select()
        .from(customCertificates)
        .where(eq(customCertificates.configurationId, configurationId));
      return row;
    },

    /** Forgets the proxy's certificate; false when it had none. */
    async remove(configurationId: string): Promise<boolean> {
      const removed = await db
        .delete(customCertificates)
        .where(eq(customCertificates.configurationId, configurationId))
        .returning({ id: customCertificates.configurationId });
      return removed.length > 0;
    },

    /** Stores the proxy's certificate, replacing the one uploaded before. */
    async save(row: Omit<TCustomCertificateRow, 'uploadedAt'> & { uploadedAt: Date }) {
      const { configurationId, ...values } = row;
      await db
        .insert(customCertificates)
        .values(row)
        .onConflictDoUpdate({ target: customCertificates.configurationId, set: values });
    },
  };
}
