import type { TSshServer } from '@portico/shared/ssh-servers/schemas';

// What a saved server's last check says about a deploy there (docs/PRODUCT.md#proxy-wizard):
// each warning names a fact the engine would stop on or work around. The wizard warns and lets
// the user go on: facts age, and the deploy reads the server again itself.

export type TServerWarning = { key: string; params?: Record<string, string | number> };

/** The OS ids the engine deploys on (deploy/engine/detect-os.ts); derivatives say so by ID_LIKE. */
const SUPPORTED_OS = new Set([
  'debian',
  'ubuntu',
  'rhel',
  'centos',
  'fedora',
  'rocky',
  'almalinux',
  'ol',
  'amzn',
]);
/** The free space the engine's preflight asks for (deploy/engine/preflight.ts MIN_FREE_KB). */
export const MIN_FREE_BYTES = 150 * 1024 * 1024;

export function serverWarnings(server: TSshServer): TServerWarning[] {
  const warnings: TServerWarning[] = [];
  if (server.reachable === false) warnings.push({ key: 'servers.wizard.warn.unreachable' });
  const facts = server.facts;
  // Facts from a check the server then failed are stale: the one warning above says enough.
  if (!facts || server.reachable === false) return warnings;
  if (facts.rootAccess === 'none') warnings.push({ key: 'servers.wizard.warn.noRoot' });
  if (
    facts.rootAccess === 'sudo_password' &&
    server.authKind === 'key' &&
    !server.hasSudoPassword
  ) {
    warnings.push({ key: 'servers.wizard.warn.sudoPassword' });
  }
  for (const port of facts.ports) {
    if (!port.listening) continue;
    if (port.program && port.program !== 'nginx') {
      warnings.push({
        key: 'servers.wizard.warn.portHeld',
        params: { port: port.port, program: port.program },
      });
    } else if (!port.program && !facts.nginx.running) {
      warnings.push({ key: 'servers.wizard.warn.portInUse', params: { port: port.port } });
    }
  }
  if (facts.os.id && !SUPPORTED_OS.has(facts.os.id)) {
    warnings.push({
      key: 'servers.wizard.warn.os',
      params: { name: facts.os.name ?? facts.os.id },
    });
  }
  if (facts.diskFreeBytes !== null && facts.diskFreeBytes < MIN_FREE_BYTES) {
    warnings.push({
      key: 'servers.wizard.warn.disk',
      params: { mb: Math.floor(facts.diskFreeBytes / 1024 / 1024) },
    });
  }
  return warnings;
}
