import { and, asc, eq, gt } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { destinationServers, type TDestinationServerRow } from '../../db/schema';

export type TDestinationsRepository = ReturnType<typeof createDestinationsRepository>;

type TWritable = Partial<
  Pick<
    TDestinationServerRow,
    | 'name'
    | 'endpoint'
    | 'description'
    | 'isActive'
    | 'maintenanceNote'
    | 'status'
    | 'latencyMs'
    | 'lastCheckedAt'
  >
>;

export interface TProbeResult {
  status: 'online' | 'offline';
  latencyMs: number | null;
  checkedAt: Date;
}

export function createDestinationsRepository(db: TDb) {
  return {
    async list(): Promise<TDestinationServerRow[]> {
      return db
        .select()
        .from(destinationServers)
        .orderBy(asc(destinationServers.name), asc(destinationServers.id));
    },

    /** The probe's next batch: active destinations in id order after `afterId`, what it reads. */
    async activeBatch(
      afterId: string | undefined,
      limit: number,
    ): Promise<Pick<TDestinationServerRow, 'id' | 'endpoint'>[]> {
      return db
        .select({ id: destinationServers.id, endpoint: destinationServers.endpoint })
        .from(destinationServers)
        .where(
          and(
            eq(destinationServers.isActive, true),
            afterId ? gt(destinationServers.id, afterId) : undefined,
          ),
        )
        .orderBy(asc(destinationServers.id))
        .limit(limit);
    },

    async find(id: string): Promise<TDestinationServerRow | undefined> {
      const [row] = await db
        .select()
        .from(destinationServers)
        .where(eq(destinationServers.id, id))
        .limit(1);
      return row;
    },

    async insert(
      row: Pick<
        TDestinationServerRow,
        'name' | 'endpoint' | 'description' | 'isActive' | 'maintenanceNote'
      >,
    ): Promise<TDestinationServerRow> {
      const [inserted] = await db.insert(destinationServers).values(row).returning();
      return inserted!;
    },

    async update(id: string, changes: TWritable): Promise<TDestinationServerRow | undefined> {
      const [row] = await db
        .update(destinationServers)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(destinationServers.id, id))
        .returning();
      return row;
    },

    async remove(id: string): Promise<boolean> {
      const rows = await db
        .delete(destinationServers)
        .where(eq(destinationServers.id, id))
        .returning({ id: destinationServers.id });
      return rows.length > 0;
    },

    /**
     * Records a probe, unless the endpoint was edited meanwhile: the result then describes an
     * address the row no longer has.
     */
    async recordProbe(id: string, endpoint: string, result: TProbeResult): Promise<void> {
      await db
        .update(destinationServers)
        .set({
          status: result.status,
          latencyMs: result.latencyMs,
          lastCheckedAt: result.checkedAt,
        })
        .where(and(eq(destinationServers.id, id), eq(destinationServers.endpoint, endpoint)));
    },
  };
}
