import { hasControlCharacter } from '@portico/shared/validation/rules';
import type { TSshServerRow } from '../../db/schema';
import type { TSshAuth } from '../../deploy/engine';
import {
  SecretDecryptError,
  SecretKeyError,
  secretAad,
  type TSecretBox,
  type TSecretBoxLoader,
} from '../../lib/secrets';
import {
  passwordBoundTo,
  serverSecretAad,
  serverTarget,
  sshTargetOf,
  type TServerSecretField,
  type TSshTarget,
} from './credential-binding';
import {
  credentialRefusalError,
  type TCredential,
  type TCredentialRefusal,
} from './credential-refusal';

/**
 * The one rule for "which credential may be presented to which host", for every SSH user (the
 * SSH test, deployments, removals, certificate actions): a secret goes only to the
 * `user@host:port` it was entered for. A proxy's own password carries that target beside it
 * (`sshPasswordTarget`); a saved server's secrets carry it inside their additional data, so a
 * row moved behind Portico's back cannot decrypt, let alone be sent elsewhere.
 */

// What a secret is bound to and the refusals are their own files; callers import them here.
export * from './credential-binding';
export * from './credential-refusal';

/** The proxy columns the rule reads. */
export interface TProxyCredentialRow {
  id: string;
  sshPasswordEnc: string | null;
  sshPasswordTarget: string | null;
  sshServerId: string | null;
}

function hasSecret(server: TSshServerRow): boolean {
  return server.passwordEnc !== null || server.privateKeyEnc !== null;
}

/** Where a saved server's host key pin is written (the repository, given by services.ts). */
export interface TServerPins {
  /** Pins where none is pinned and the server is still at `target`. */
  pin(id: string, fingerprint: string, target: TSshTarget): Promise<void>;
  /** Clears the server's pin and the pins its proxies kept. */
  forget(id: string): Promise<unknown>;
}

class Refused extends Error {
  constructor(readonly refusal: TCredentialRefusal) {
    super(refusal.reason);
  }
}

export type TServerCredentials = ReturnType<typeof createServerCredentials>;

/**
 * The secret box (the key file is read on first use and again after a failure, so a key
 * restored while Portico runs is picked up) and the rule above.
 */
export function createServerCredentials(
  secretBox: TSecretBoxLoader,
  findServer: (id: string) => Promise<TSshServerRow | undefined>,
  serverPins: TServerPins = { pin: async () => {}, forget: async () => {} },
) {
  function openBox(): TSecretBox {
    try {
      return secretBox();
    } catch (error) {
      if (error instanceof SecretKeyError) throw new Refused({ reason: 'key_unreadable' });
      throw error;
    }
  }

  function decrypt(stored: string, aad: string): string {
    try {
      return openBox().decrypt(stored, aad);
    } catch (error) {
      if (error instanceof SecretDecryptError) throw new Refused({ reason: 'undecryptable' });
      if (error instanceof SecretKeyError) throw new Refused({ reason: 'key_unreadable' });
      throw error;
    }
  }

  /** Throws the API error of a refusal; for callers that answer an HTTP request. */
  function orThrow<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof Refused) throw credentialRefusalError(error.refusal, 'deploy');
      throw error;
    }
  }

  function proxyPassword(row: TProxyCredentialRow): string {
    const password = decrypt(row.sshPasswordEnc!, secretAad('proxy', row.id, 'sshPassword'));
    // Saved before such passwords were refused: OpenSSH would only drop the connection.
    if (hasControlCharacter(password)) throw new Refused({ reason: 'unusable' });
    return password;
  }

  function serverAuth(server: TSshServerRow): TSshAuth | undefined {
    const target = serverTarget(server);
    const open = (stored: string | null, field: TServerSecretField) =>
      stored === null ? undefined : decrypt(stored, serverSecretAad(server.id, field, target));
    if (server.authKind === 'key') {
      const privateKey = open(server.privateKeyEnc, 'privateKey');
      if (privateKey === undefined) return undefined;
      const passphrase = open(server.passphraseEnc, 'passphrase');
      const sudoPassword = open(server.sudoPasswordEnc, 'sudoPassword');
      return { privateKey, passphrase, sudoPassword };
    }
    const password = open(server.passwordEnc, 'password');
    if (password === undefined) return undefined;
    if (hasControlCharacter(password)) throw new Refused({ reason: 'unusable' });
    return { password };
  }

  return {
    /**
     * The credential presented to `target` for a proxy: its own password when entered for that
     * target, else its saved server's secrets when the server is that target; otherwise why not.
     */
    async credentialFor(proxy: TProxyCredentialRow, target: TSshTarget): Promise<TCredential> {
      const server = proxy.sshServerId ? await findServer(proxy.sshServerId) : undefined;
      return this.credentialOf(proxy, server ?? null, target);
    },

    /**
     * Whether `credentialFor` would have something to present to `target`, without decrypting
     * (a deploy start answers at once; the job decrypts and says what went wrong, if anything).
     */
    async hasCredentialFor(proxy: TProxyCredentialRow, target: TSshTarget): Promise<boolean> {
      if (passwordBoundTo(proxy, target)) return true;
      const server = proxy.sshServerId ? await findServer(proxy.sshServerId) : undefined;
      return Boolean(
        server && hasSecret(server) && sshTargetOf(serverTarget(server)) === sshTargetOf(target),
      );
    },

    /** The same with the server row at hand (a saved server's own check has no proxy). */
    credentialOf(
      proxy: TProxyCredentialRow | null,
      server: TSshServerRow | null,
      target: TSshTarget,
    ): TCredential {
      try {
        if (proxy && passwordBoundTo(proxy, target)) {
          return { auth: { password: proxyPassword(proxy) } };
        }
        if (server && sshTargetOf(serverTarget(server)) === sshTargetOf(target)) {
          const auth = serverAuth(server);
          if (auth) return { auth };
        }
        const savedElsewhere =
          Boolean(proxy?.sshPasswordEnc) || Boolean(server && hasSecret(server));
        return {
          refused: { reason: 'no_credential', target: sshTargetOf(target), savedElsewhere },
        };
      } catch (error) {
        if (error instanceof Refused) return { refused: error.refusal };
        throw error;
      }
    },

    /**
     * The host key a connection to `target` must present: the saved server's pin when the proxy
     * is on a saved server at that host and port (null there: a first contact, after "forget
     * key"), else `ownPin`, the one the proxy or its site record holds.
     */
    async hostKeyFor(
      proxy: Pick<TProxyCredentialRow, 'sshServerId'>,
      target: TSshTarget,
      ownPin: string | null | undefined,
    ): Promise<string | undefined> {
      const server = proxy.sshServerId ? await findServer(proxy.sshServerId) : undefined;
      if (server && server.host === target.serverIp && server.port === target.sshPort) {
        return server.hostKeyFingerprint ?? undefined;
      }
      return ownPin ?? undefined;
    },

    /** A first contact's key, pinned on the proxy's saved server when that is where it went. */
    async pinFirstContact(
      proxy: Pick<TProxyCredentialRow, 'sshServerId'>,
      target: TSshTarget,
      fingerprint: string,
    ): Promise<void> {
      if (proxy.sshServerId) await serverPins.pin(proxy.sshServerId, fingerprint, target);
    },

    /**
     * "Forget host key" on a proxy on a saved server forgets the server's pin too: that is the
     * one its connections expect (hostKeyFor).
     */
    async forgetServerPin(proxy: Pick<TProxyCredentialRow, 'sshServerId'>): Promise<void> {
      if (proxy.sshServerId) await serverPins.forget(proxy.sshServerId);
    },

    /** The columns that store a proxy's `password`, bound to the target it was entered for. */
    sealPassword(id: string, password: string, target: TSshTarget) {
      return orThrow(() => ({
        sshPasswordEnc: openBox().encrypt(password, secretAad('proxy', id, 'sshPassword')),
        sshPasswordTarget: sshTargetOf(target),
      }));
    },

    /** One secret of a saved server, bound to its row, column and target. */
    sealServerSecret(id: string, field: TServerSecretField, value: string, target: TSshTarget) {
      return orThrow(() => openBox().encrypt(value, serverSecretAad(id, field, target)));
    },

    /** A saved server's secrets in clear, for an export that seals them under a passphrase. */
    openServerSecrets(server: TSshServerRow): Partial<Record<TServerSecretField, string>> {
      const target = serverTarget(server);
      const stored: [TServerSecretField, string | null][] = [
        ['password', server.passwordEnc],
        ['privateKey', server.privateKeyEnc],
        ['passphrase', server.passphraseEnc],
        ['sudoPassword', server.sudoPasswordEnc],
      ];
      return orThrow(() =>
        Object.fromEntries(
          stored
            .filter((entry): entry is [TServerSecretField, string] => entry[1] !== null)
            .map(([field, value]) => [
              field,
              decrypt(value, serverSecretAad(server.id, field, target)),
            ]),
        ),
      );
    },

    /** A proxy's own password in clear, when it was entered for where the proxy points now. */
    openProxyPassword(proxy: TProxyCredentialRow & TSshTarget): string | undefined {
      if (!passwordBoundTo(proxy, proxy)) return undefined;
      return orThrow(() => proxyPassword(proxy));
    },

    /** A proxy password moved to its server (start-up backfill): decrypted, then sealed there. */
    movePasswordToServer(proxy: TProxyCredentialRow, serverId: string, target: TSshTarget) {
      return orThrow(() =>
        openBox().encrypt(proxyPassword(proxy), serverSecretAad(serverId, 'password', target)),
      );
    },
  };
}
