import type { TDestinationServer } from '@portico/shared/proxy/api';
import { isManualDestination, trimSpaces } from '@portico/shared/validation/rules';

export const MANUAL = 'manual';

/** Offline or inactive servers cannot be chosen. */
export function isSelectable(server: TDestinationServer): boolean {
  return server.isActive && server.status !== 'offline';
}

/**
 * A previously chosen endpoint that matches a listed server preselects it; otherwise
 * manual mode is preselected with that endpoint. Nothing chosen yet: nothing preselected.
 */
export function preselect(
  targetServer: string,
  servers: readonly TDestinationServer[],
): { selection: string | null; manualEndpoint: string } {
  const target = targetServer.trim();
  if (target === '') return { selection: null, manualEndpoint: '' };
  const match = servers.find((s) => s.endpoint === target && isSelectable(s));
  if (match) return { selection: match.id, manualEndpoint: '' };
  return { selection: MANUAL, manualEndpoint: target };
}

/** Next needs a valid manual endpoint or a chosen listed server that is online. */
export function chosenTarget(
  selection: string | null,
  manualEndpoint: string,
  servers: readonly TDestinationServer[],
): string | null {
  if (selection === MANUAL)
    return isManualDestination(manualEndpoint) ? trimSpaces(manualEndpoint) : null;
  const server = servers.find((s) => s.id === selection);
  if (!server || !isSelectable(server) || server.status !== 'online') return null;
  return server.endpoint;
}
