import type { TServerFacts } from '@portico/shared/ssh-servers/facts';
import { describe, expect, it } from 'vitest';
import { aServer, someFacts } from '@/test/ssh-server';
import { MIN_FREE_BYTES, serverWarnings } from './server-warnings';

const healthy = someFacts();
const keys = (facts: Partial<TServerFacts>, server: Parameters<typeof aServer>[0] = {}) =>
  serverWarnings(aServer({ reachable: true, facts: { ...healthy, ...facts }, ...server })).map(
    (w) => [w.key, w.params],
  );

describe('what the chosen saved server’s facts warn of', () => {
  it('nothing for a server never checked, or one where the deploy will run as it should', () => {
    expect(serverWarnings(aServer())).toEqual([]);
    expect(keys({})).toEqual([]);
    // nginx itself holding a port, or one whose holder the login could not see while nginx runs.
    expect(keys({ ports: [{ port: 443, listening: true, program: null }] })).toEqual([]);
  });

  it('an unreachable server: that alone, whatever facts were read before', () => {
    expect(
      serverWarnings(aServer({ reachable: false, facts: { ...healthy, rootAccess: 'none' } })),
    ).toEqual([{ key: 'servers.wizard.warn.unreachable' }]);
  });

  it('no root; sudo asking a password a key login has none for', () => {
    expect(keys({ rootAccess: 'none' })).toEqual([['servers.wizard.warn.noRoot', undefined]]);
    expect(keys({ rootAccess: 'sudo_password' }, { authKind: 'key' })).toEqual([
      ['servers.wizard.warn.sudoPassword', undefined],
    ]);
    // A password login's sudo uses that password; a key with its sudo password saved is fine.
    expect(keys({ rootAccess: 'sudo_password' })).toEqual([]);
    expect(
      keys({ rootAccess: 'sudo_password' }, { authKind: 'key', hasSudoPassword: true }),
    ).toEqual([]);
  });

  it('another web server on 80 or 443, an OS the engine does not deploy on, a full disk', () => {
    expect(
      keys({
        nginx: { version: null, running: false },
        ports: [
          { port: 80, listening: true, program: 'apache2' },
          { port: 443, listening: true, program: null },
        ],
        os: { id: 'arch', version: null, name: 'Arch Linux' },
        diskFreeBytes: MIN_FREE_BYTES - 1,
      }),
    ).toEqual([
      ['servers.wizard.warn.portHeld', { port: 80, program: 'apache2' }],
      ['servers.wizard.warn.portInUse', { port: 443 }],
      ['servers.wizard.warn.os', { name: 'Arch Linux' }],
      ['servers.wizard.warn.disk', { mb: 149 }],
    ]);
  });
});
