import type { TDestinationInput, TDestinationUpdate } from '@portico/shared/admin/destinations';
import type { TDestinationServer } from '@portico/shared/proxy/api';
import type { TDestinationServerRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { TImmediateProber } from './destination-probe';
import type { TDestinationsRepository } from './destinations.repository';

export type TDestinationsService = ReturnType<typeof createDestinationsService>;

function toDestinationServer(row: TDestinationServerRow): TDestinationServer {
  return {
    id: row.id,
    name: row.name,
    endpoint: row.endpoint,
    description: row.description,
    status: row.status,
    load: row.load,
    latency: row.latencyMs,
    isActive: row.isActive,
    maintenanceNote: row.maintenanceNote,
  };
}

const blankToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value ? value : null;

/** `prober` checks a destination as soon as it is saved (an app without one waits for the cron). */
export function createDestinationsService(
  repository: TDestinationsRepository,
  prober?: Pick<TImmediateProber, 'probe'>,
) {
  return {
    /** Every destination, inactive ones too: the wizard shows them as not selectable. */
    async list(): Promise<TDestinationServer[]> {
      return (await repository.list()).map(toDestinationServer);
    },

    async create(input: TDestinationInput): Promise<TDestinationServer> {
      const row = await repository.insert(input);
      prober?.probe(row);
      return toDestinationServer(row);
    },

    async update(id: string, input: TDestinationUpdate): Promise<TDestinationServer> {
      const current = await repository.find(id);
      if (!current) throw new AppError('not_found', 404);
      const endpointChanged = input.endpoint !== undefined && input.endpoint !== current.endpoint;
      const updated = await repository.update(id, {
        name: input.name,
        endpoint: input.endpoint,
        description: blankToNull(input.description),
        isActive: input.isActive,
        maintenanceNote: blankToNull(input.maintenanceNote),
        // A new address has not been measured yet: unknown until the next probe.
        ...(endpointChanged ? { status: 'unknown', latencyMs: null, lastCheckedAt: null } : {}),
      });
      if (!updated) throw new AppError('not_found', 404);
      prober?.probe(updated);
      return toDestinationServer(updated);
    },

    async remove(id: string): Promise<void> {
      if (!(await repository.remove(id))) throw new AppError('not_found', 404);
    },
  };
}
