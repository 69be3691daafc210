import type { TServerFacts } from '@portico/shared/ssh-servers/facts';
import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import { HEALTHY_DEBIAN_FACTS } from '@portico/shared/test/server-facts';

/** A saved server as the API answers it, for component tests; override what the test is about. */
export function aServer(overrides: Partial<TSshServer> = {}): TSshServer {
  return {
    id: '00000000-0000-4000-8000-0000000000a1',
    userId: 'u1',
    owner: 'jane_doe',
    name: 'web-1',
    host: '203.0.113.10',
    port: 22,
    username: 'deploy',
    authKind: 'password',
    hasPassword: true,
    hasPrivateKey: false,
    hasPassphrase: false,
    hasSudoPassword: false,
    publicKey: null,
    hostKeyFingerprint: null,
    description: null,
    isActive: true,
    lastCheckedAt: null,
    reachable: null,
    facts: null,
    proxyCount: 0,
    createdAt: '2026-01-05T07:08:09.000Z',
    updatedAt: '2026-01-05T07:08:09.000Z',
    ...overrides,
  };
}

/** A check's facts as a healthy Debian server with nginx answers them; override what matters. */
export function someFacts(overrides: Partial<TServerFacts> = {}): TServerFacts {
  return { ...HEALTHY_DEBIAN_FACTS, ...overrides };
}
