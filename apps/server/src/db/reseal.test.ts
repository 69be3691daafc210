// The key rotation's compare-and-set (db/reseal.ts), which every owner of a sealed column calls:
// a value changed since the rotation read it is never overwritten, and the rotation then moves
// none of its values (one transaction).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../test/support/test-database';
import { createCertificateSecrets } from '../modules/certificates/certificate-secrets.repository';
import { createNotificationsRepository } from '../modules/notifications/notifications.repository';
import { createProxyCredentials } from '../modules/proxies/proxy-credentials.repository';
import {
  createSecretsRepository,
  SecretChangedDuringRotationError,
} from '../modules/secrets/secrets.repository';
import { createServerReads } from '../modules/ssh-servers/server-reads.repository';
import { createUserSecrets } from '../modules/users/user-secrets.repository';
import { resealWhereUnchanged } from './reseal';
import { notificationSettings, users } from './schema';

describe.each(testDatabaseKinds())('resealing a stored secret on %s', (kind) => {
  let t: TTestDatabase;
  let userId: string;
  const tag = `${process.pid}${kind.slice(0, 2)}`;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    const [row] = await t.database.db
      .insert(users)
      .values({
        username: `reseal${tag}`,
        email: `reseal${tag}@example.test`,
        passwordHash: 'x',
        totpSecretEnc: 'sealed-1',
      })
      .returning({ id: users.id });
    userId = row!.id;
    await t.database.db.insert(notificationSettings).values({ userId, webhookUrlEnc: 'hook-1' });
  });
  afterAll(async () => {
    await t?.drop();
  });

  const stored = async () =>
    (
      await t.database.db
        .select({ totp: users.totpSecretEnc, hook: notificationSettings.webhookUrlEnc })
        .from(users)
        .innerJoin(notificationSettings, eq(notificationSettings.userId, users.id))
        .where(eq(users.id, userId))
    )[0]!;
  const reseal = (previous: string, next: string) =>
    resealWhereUnchanged(t.database.db, users, users.id, users.totpSecretEnc, {
      id: userId,
      previous,
      next,
    });

  it('writes the new value only over the one it read, and says whether it did', async () => {
    expect(await reseal('sealed-1', 'sealed-2')).toBe(true);
    expect((await stored()).totp).toBe('sealed-2');
    // Read before that write: the row no longer holds it, and keeps what it holds.
    expect(await reseal('sealed-1', 'sealed-3')).toBe(false);
    expect((await stored()).totp).toBe('sealed-2');
  });

  it('refuses a column of another table, writing nothing', async () => {
    await expect(
      resealWhereUnchanged(t.database.db, users, users.id, notificationSettings.webhookUrlEnc, {
        id: userId,
        previous: 'hook-1',
        next: 'hook-2',
      }),
    ).rejects.toThrow('webhook_url_enc is not a column of users');
    expect(await stored()).toEqual({ totp: 'sealed-2', hook: 'hook-1' });
  });

  it('makes the rotation move nothing when one value changed since it was read', async () => {
    const secrets = createSecretsRepository(t.database.db, {
      proxies: createProxyCredentials,
      servers: createServerReads,
      notifications: createNotificationsRepository,
      certificates: createCertificateSecrets,
      users: createUserSecrets,
    });
    await expect(
      secrets.replaceSecrets([
        { kind: 'user', id: userId, previous: 'sealed-2', next: 'sealed-4' },
        { kind: 'webhook', id: userId, previous: 'hook-0', next: 'hook-2' },
      ]),
    ).rejects.toBeInstanceOf(SecretChangedDuringRotationError);
    expect(await stored()).toEqual({ totp: 'sealed-2', hook: 'hook-1' });

    await secrets.replaceSecrets([
      { kind: 'user', id: userId, previous: 'sealed-2', next: 'sealed-4' },
      { kind: 'webhook', id: userId, previous: 'hook-1', next: 'hook-2' },
    ]);
    expect(await stored()).toEqual({ totp: 'sealed-4', hook: 'hook-2' });
  });
});
