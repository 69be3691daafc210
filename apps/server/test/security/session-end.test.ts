// Sessions that must end: `portico user reset-password` is how an operator locks
// out whoever holds an account's password (docs/PRODUCT.md#accounts-and-roles), so it must also end every session
// signed in with the old one. Runs the real CLI against the real store, like cli.test.ts.
import { describe, expect, it } from 'vitest';
import { useCliStore } from '../support/cli-store';
import { runTs } from '../support/spawn';
import { withAppOnStore } from '../support/test-app';
import { newCredentials, TestClient } from '../support/test-client';
import { testDatabaseKinds } from '../support/test-database';

describe.each(testDatabaseKinds())(
  'password reset ends sessions on %s',
  { timeout: 120_000 },
  (kind) => {
    const env = useCliStore(kind, 'session-end');

    /** The server on the shared store for one step; PGlite's data-dir lock allows one process. */
    async function serve<T>(
      step: (client: (cookies?: Map<string, string>) => TestClient) => Promise<T>,
    ) {
      return withAppOnStore(env, ({ app }) =>
        step((cookies = new Map<string, string>()) => {
          const c = new TestClient(app);
          for (const [k, v] of cookies) c.cookies.set(k, v);
          return c;
        }),
      );
    }

    it('signs out every session of the account, and only of that account', async () => {
      const victim = newCredentials('reset');
      const bystander = newCredentials('keep');
      const jars = await serve(async (client) => {
        const laptop = client();
        const phone = client();
        const other = client();
        expect((await laptop.register(victim)).statusCode).toBe(201);
        expect((await phone.login(victim.username, victim.password)).statusCode).toBe(200);
        expect((await other.register(bystander)).statusCode).toBe(201);
        return { laptop: laptop.cookies, phone: phone.cookies, other: other.cookies };
      });

      const reset = await runTs('src/cli.ts', ['user', 'reset-password', victim.username], {
        env,
        input: 'Changed12345\n',
      });
      expect(reset.stderr).toBe('');
      expect(reset.code).toBe(0);

      await serve(async (client) => {
        expect((await client(jars.laptop).me()).statusCode).toBe(401);
        expect((await client(jars.phone).me()).statusCode).toBe(401);
        expect((await client(jars.other).me()).statusCode).toBe(200);
        expect((await client().login(victim.username, 'Changed12345')).statusCode).toBe(200);
      });
    });
  },
);
