// The admin's certificates needing attention, searched: the proxy as its list finds it (domain,
// target, server address) or its owner's name or e-mail, whatever the case of either side, on
// the stored lower-cased texts (proxy_configurations.search_text, users.search_text) with plain
// LIKEs; the statements sent are read here, so a return to ILIKE fails.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsReadRecorder } from '../../../test/support/rows-read';
import {
  createTestDatabase,
  type TTestDatabase,
  testDatabaseKinds,
} from '../../../test/support/test-database';
import { certificateStatus, proxyConfigurations, users } from '../../db/schema';
import { createCertificateActionHistory } from '../deployments/certificate-action-history.repository';
import { createProxyCertificateReads } from '../proxies/proxy-certificates.repository';
import { createCertificatesRepository } from './certificates.repository';

describe.each(testDatabaseKinds())(
  'the certificates needing attention, searched, on %s',
  (kind) => {
    let t: TTestDatabase;
    const tag = `${process.pid}${kind.slice(0, 2)}`;
    beforeAll(async () => {
      t = await createTestDatabase(kind);
      const owners = await t.database.db
        .insert(users)
        .values(
          ['Owner_One', 'OwnerxOne'].map((name) => ({
            username: `${name}${tag}`,
            email: `${name}${tag}@Mail.example`.toLowerCase(),
            passwordHash: 'x',
          })),
        )
        .returning({ id: users.id });
      const proxies = await t.database.db
        .insert(proxyConfigurations)
        .values(
          owners.map((owner, i) => ({
            userId: owner.id,
            domain: `site${i}-${tag}.attention.example`,
            serverIp: '203.0.113.9',
            email: 'o@example.com',
            targetServer: i === 0 ? 'http://Backend.Internal:8080/100%' : 'http://10.0.0.2:80',
            status: 'completed' as const,
            sslConfigured: true,
          })),
        )
        .returning({ id: proxyConfigurations.id });
      // A check that failed: a reason for attention.
      await t.database.db.insert(certificateStatus).values(
        proxies.map((p) => ({
          configurationId: p.id,
          lastCheck: {
            checkedAt: new Date().toISOString(),
            ok: false,
            problem: { key: 'certificates.problem.refused', params: { where: 'x:443' } },
            httpRedirects: true,
            httpProblem: null,
          },
        })),
      );
    });
    afterAll(async () => {
      await t?.drop();
    });

    const search = async (q: string) => {
      const recorder = rowsReadRecorder(t.database);
      const page = await createCertificatesRepository(recorder.db, {
        proxies: createProxyCertificateReads,
        history: (db) => createCertificateActionHistory(db, createProxyCertificateReads),
      }).attentionPage({ q, limit: 50 }, new Date());
      return {
        domains: page.rows.map((row) => row.proxy.domain).sort(),
        statements: recorder.statements.join('\n'),
      };
    };

    it('finds the domain, the target and the owner’s name or e-mail, in any case, with LIKEs', async () => {
      const byDomain = await search(`SITE1-${tag}.Attention`);
      expect(byDomain.domains).toEqual([`site1-${tag}.attention.example`]);
      expect(byDomain.statements).toMatch(/"proxy_configurations"\."search_text" like \$/);
      expect(byDomain.statements).toMatch(/"users"\."search_text" like \$/);
      expect(byDomain.statements).not.toMatch(/ilike|lower\(/i);
      expect((await search('backend.INTERNAL')).domains).toEqual([
        `site0-${tag}.attention.example`,
      ]);
      expect((await search(`OWNERXONE${tag}`)).domains).toEqual([`site1-${tag}.attention.example`]);
      expect((await search(`ownerxone${tag}@MAIL.example`)).domains).toEqual([
        `site1-${tag}.attention.example`,
      ]);
    });

    it('takes % and _ as the characters they are', async () => {
      // "_" would match any one character, so OwnerxOne's too.
      expect((await search(`owner_one${tag}`)).domains).toEqual([`site0-${tag}.attention.example`]);
      expect((await search('internal:8080/100%')).domains).toEqual([
        `site0-${tag}.attention.example`,
      ]);
      expect((await search(`%${tag}`)).domains).toEqual([]);
    });

    it('follows a change of the owner’s name', async () => {
      await t.database.db
        .update(users)
        .set({ username: `Renamed${tag}` })
        .where(eq(users.username, `OwnerxOne${tag}`));
      expect((await search(`renamed${tag}`)).domains).toEqual([`site1-${tag}.attention.example`]);
    });
  },
);
