// The authorization matrix: for every route Fastify serves, the status each kind of caller gets
// when it aims at resources that belong to "owner". authorization-matrix.test.ts runs every cell
// and fails on any route missing here, so a new route cannot ship without a decision.
//
// docs/PRODUCT.md#accounts-and-roles: another user reaching an owner's proxy, log or socket gets 404 (never 403, so
// existence is not revealed); admin endpoints answer 403 to users; signed out is 401.

export const ACTORS = ['anonymous', 'owner', 'other', 'admin'] as const;
export type TActor = (typeof ACTORS)[number];
export type TExpected = Record<TActor, number>;

export interface TMatrixRow {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route exactly as registered (Fastify's pattern, e.g. /api/proxy-configurations/:id). */
  url: string;
  expected: TExpected;
  /** Refuses API tokens (403): signing in and out, the account itself, the log socket. */
  sessionOnly?: boolean;
}

/**
 * API token callers, each with an `Authorization: Bearer` token and no cookie:
 * the owner's `manage` and `read` tokens, another user's and an admin's `manage` token.
 */
export const TOKEN_ACTORS = ['ownerToken', 'readToken', 'otherToken', 'adminToken'] as const;
export type TTokenActor = (typeof TOKEN_ACTORS)[number];
export type TTokenExpected = Record<TTokenActor, number>;

const READS = new Set(['GET', 'HEAD']);

/**
 * What a token caller gets, derived from the cookie cells by the rules tokens follow: a token
 * acts as its owner with user rights only, so the admin's token gets what another user gets
 * (admin routes 403, the owner's objects 404); a `read` token is refused every write (403)
 * before anything else; a session-only route refuses every token (403).
 */
export function tokenExpected(row: TMatrixRow): TTokenExpected {
  if (row.sessionOnly) return { ownerToken: 403, readToken: 403, otherToken: 403, adminToken: 403 };
  return {
    ownerToken: row.expected.owner,
    readToken: READS.has(row.method) ? row.expected.owner : 403,
    otherToken: row.expected.other,
    adminToken: row.expected.other,
  };
}

/**
 * For /ws the cells are not HTTP statuses alone: 401/403 = upgrade refused with that status,
 * WS_CLOSED_POLICY = upgraded, then closed with 1008 before any message, WS_REPLAYED = upgraded
 * and the current run replayed (at least the status message).
 */
export const WS_CLOSED_POLICY = 1008;
export const WS_REPLAYED = 101;

const everyone = (status: number): TExpected => ({
  anonymous: status,
  owner: status,
  other: status,
  admin: status,
});
const signedIn = (status: number): TExpected => ({
  anonymous: 401,
  owner: status,
  other: status,
  admin: status,
});
/** Owner's resource through an owner-or-admin endpoint. */
const ownerOrAdmin = (status: number): TExpected => ({
  anonymous: 401,
  owner: status,
  other: 404,
  admin: status,
});
/** Owner's resource through an endpoint only its owner may use (admins have their own). */
const ownerOnly = (status: number): TExpected => ({
  anonymous: 401,
  owner: status,
  other: 404,
  admin: 404,
});
const adminOnly = (status: number): TExpected => ({
  anonymous: 401,
  owner: 403,
  other: 403,
  admin: status,
});

export const AUTHORIZATION_TABLE: TMatrixRow[] = [
  // Probes and the API description are public: they hold no account data.
  { method: 'GET', url: '/healthz', expected: everyone(200) },
  { method: 'GET', url: '/readyz', expected: everyone(200) },
  { method: 'GET', url: '/api/openapi.json', expected: everyone(200) },
  { method: 'GET', url: '/api/docs', expected: everyone(200) },
  { method: 'GET', url: '/api/docs/json', expected: everyone(200) },
  { method: 'GET', url: '/api/docs/yaml', expected: everyone(200) },
  // Only HEAD is registered at /api/docs/ (swagger-ui's own routes); GET falls to /api/docs.
  { method: 'HEAD', url: '/api/docs/', expected: everyone(200) },
  // swagger-ui answers its index page's own URL with a redirect to the docs page.
  { method: 'GET', url: '/api/docs/static/index.html', expected: everyone(302) },
  { method: 'GET', url: '/api/docs/static/swagger-initializer.js', expected: everyone(200) },
  { method: 'GET', url: '/api/docs/static/*', expected: everyone(200) },

  // Accounts and sessions.
  { method: 'GET', url: '/api/csrf-token', expected: everyone(200) },
  { method: 'GET', url: '/api/auth/options', expected: everyone(200) },
  { method: 'POST', url: '/api/register', expected: everyone(201), sessionOnly: true },
  { method: 'POST', url: '/api/login', expected: everyone(200), sessionOnly: true },
  // Without a password accepted first there is nothing to complete (two-factor.routes.test.ts).
  { method: 'POST', url: '/api/login/two-factor', expected: everyone(401), sessionOnly: true },
  { method: 'POST', url: '/api/logout', expected: everyone(200), sessionOnly: true },
  { method: 'GET', url: '/api/auth/user', expected: signedIn(200) },

  // One's own account (settings): every caller acts on their own; tokens never reach it.
  { method: 'PUT', url: '/api/account/profile', expected: signedIn(200), sessionOnly: true },
  { method: 'PUT', url: '/api/account/email', expected: signedIn(200), sessionOnly: true },
  { method: 'PUT', url: '/api/account/password', expected: signedIn(200), sessionOnly: true },
  { method: 'GET', url: '/api/account/two-factor', expected: signedIn(200), sessionOnly: true },
  {
    method: 'POST',
    url: '/api/account/two-factor/setup',
    expected: signedIn(200),
    sessionOnly: true,
  },
  // A wrong code after the setup above: refused as such, nothing turned on.
  {
    method: 'POST',
    url: '/api/account/two-factor/confirm',
    expected: signedIn(400),
    sessionOnly: true,
  },
  // Two-factor is off for every matrix account: nothing to turn off or renew.
  {
    method: 'POST',
    url: '/api/account/two-factor/disable',
    expected: signedIn(409),
    sessionOnly: true,
  },
  {
    method: 'POST',
    url: '/api/account/two-factor/recovery-codes',
    expected: signedIn(409),
    sessionOnly: true,
  },
  { method: 'GET', url: '/api/account/tokens', expected: signedIn(200), sessionOnly: true },
  { method: 'POST', url: '/api/account/tokens', expected: signedIn(201), sessionOnly: true },
  // The owner's token and the owner's other session: nobody else's to revoke or end.
  {
    method: 'DELETE',
    url: '/api/account/tokens/:id',
    expected: ownerOnly(200),
    sessionOnly: true,
  },
  // Export and import act on the caller's own servers and proxies; a manage token may use them.
  { method: 'POST', url: '/api/account/export', expected: signedIn(200) },
  { method: 'POST', url: '/api/account/import', expected: signedIn(200) },
  { method: 'GET', url: '/api/account/sessions', expected: signedIn(200), sessionOnly: true },
  {
    method: 'DELETE',
    url: '/api/account/sessions/:id',
    expected: ownerOnly(200),
    sessionOnly: true,
  },
  {
    method: 'POST',
    url: '/api/account/sessions/end-others',
    expected: signedIn(200),
    sessionOnly: true,
  },
  // Certificate alerts (Notifications section): one's own settings, test and language.
  { method: 'GET', url: '/api/account/notifications', expected: signedIn(200), sessionOnly: true },
  { method: 'PUT', url: '/api/account/notifications', expected: signedIn(200), sessionOnly: true },
  {
    method: 'POST',
    url: '/api/account/notifications/test',
    expected: signedIn(200),
    sessionOnly: true,
  },
  // The matrix's Portico has no SMTP (409), and no code was sent to verify (400).
  {
    method: 'POST',
    url: '/api/account/notifications/email/code',
    expected: signedIn(409),
    sessionOnly: true,
  },
  {
    method: 'POST',
    url: '/api/account/notifications/email/verify',
    expected: signedIn(400),
    sessionOnly: true,
  },
  { method: 'PUT', url: '/api/account/language', expected: signedIn(200), sessionOnly: true },

  // Wizard checks: the stored password of a configuration is only its owner's to use.
  { method: 'POST', url: '/api/validate-dns', expected: signedIn(200) },
  { method: 'POST', url: '/api/test-ssh', expected: ownerOnly(200) },
  { method: 'POST', url: '/api/upload-script', expected: ownerOnly(200) },
  { method: 'POST', url: '/api/check-duplicate-configuration', expected: signedIn(200) },

  // Proxies: the wizard's save and the user edit are the owner's; admins edit via /api/admin.
  { method: 'POST', url: '/api/proxy-configurations', expected: ownerOnly(200) },
  { method: 'GET', url: '/api/proxy-configurations/:id', expected: ownerOrAdmin(200) },
  { method: 'GET', url: '/api/user/proxy-configurations', expected: signedIn(200) },
  { method: 'PUT', url: '/api/user/proxy-configurations/:id', expected: ownerOnly(200) },
  { method: 'PATCH', url: '/api/proxy-configurations/:id/reset', expected: ownerOrAdmin(200) },
  {
    method: 'DELETE',
    url: '/api/proxy-configurations/:id/host-key',
    expected: ownerOrAdmin(200),
  },
  { method: 'DELETE', url: '/api/proxy-configurations/:id', expected: ownerOrAdmin(200) },

  // Deployments and their logs.
  { method: 'POST', url: '/api/deploy/:configurationId', expected: ownerOrAdmin(202) },
  {
    method: 'POST',
    url: '/api/proxy-configurations/:id/redeploy',
    expected: ownerOrAdmin(202),
  },
  // A plan reads the server: the matrix's server (port 1 on loopback) cannot be reached, 502.
  { method: 'POST', url: '/api/proxy-configurations/:id/plan', expected: ownerOrAdmin(502) },
  { method: 'POST', url: '/api/proxy-configurations/:id/apply', expected: ownerOrAdmin(202) },
  // A conversion is only for an adopted site: the matrix's proxy is Portico's own (409).
  {
    method: 'POST',
    url: '/api/proxy-configurations/:id/convert/plan',
    expected: ownerOrAdmin(409),
  },
  { method: 'POST', url: '/api/proxy-configurations/:id/convert', expected: ownerOrAdmin(409) },
  { method: 'GET', url: '/api/deployment-logs/:id', expected: ownerOrAdmin(200) },

  // Certificates: the caller's list, one proxy's certificate, its check, its two actions and
  // your own certificate's upload.
  { method: 'GET', url: '/api/certificates', expected: signedIn(200) },
  {
    method: 'GET',
    url: '/api/proxy-configurations/:id/certificate',
    expected: ownerOrAdmin(200),
  },
  {
    method: 'POST',
    url: '/api/proxy-configurations/:id/certificate/check',
    expected: ownerOrAdmin(202),
  },
  {
    method: 'POST',
    url: '/api/proxy-configurations/:id/certificate/renew-test',
    expected: ownerOrAdmin(202),
  },
  {
    method: 'POST',
    url: '/api/proxy-configurations/:id/certificate/renew',
    expected: ownerOrAdmin(202),
  },
  {
    method: 'PUT',
    url: '/api/proxy-configurations/:id/certificate/custom',
    expected: ownerOrAdmin(200),
  },
  {
    method: 'DELETE',
    url: '/api/proxy-configurations/:id/certificate/custom',
    expected: ownerOrAdmin(200),
  },
  {
    method: 'GET',
    url: '/api/proxy-configurations/:id/certificate/dns',
    expected: ownerOrAdmin(200),
  },
  {
    method: 'PUT',
    url: '/api/proxy-configurations/:id/certificate/dns',
    expected: ownerOrAdmin(200),
  },
  {
    method: 'DELETE',
    url: '/api/proxy-configurations/:id/certificate/dns',
    expected: ownerOrAdmin(200),
  },
  // Each caller's own wildcards only (another's are never offered: wildcard-use.routes.test.ts).
  { method: 'GET', url: '/api/certificates/wildcards', expected: signedIn(200) },
  {
    method: 'GET',
    url: '/api/proxy-configurations/:id/certificate/wildcards',
    expected: ownerOrAdmin(200),
  },
  {
    method: 'PUT',
    url: '/api/proxy-configurations/:id/certificate/wildcard',
    expected: ownerOrAdmin(200),
  },
  {
    method: 'DELETE',
    url: '/api/proxy-configurations/:id/certificate/wildcard',
    expected: ownerOrAdmin(200),
  },
  { method: 'GET', url: '/api/admin/certificates', expected: adminOnly(200) },
  { method: 'GET', url: '/api/admin/backups/status', expected: adminOnly(200) },
  {
    method: 'GET',
    url: '/ws',
    expected: { anonymous: 401, owner: WS_REPLAYED, other: WS_CLOSED_POLICY, admin: WS_REPLAYED },
    // Browsers only (cookie and Origin); follow a run over HTTP with GET /api/deployment-logs.
    sessionOnly: true,
  },

  // Destinations: everyone signed in lists them, admins manage them.
  { method: 'GET', url: '/api/destination-servers', expected: signedIn(200) },
  { method: 'POST', url: '/api/admin/destination-servers', expected: adminOnly(201) },
  { method: 'PUT', url: '/api/admin/destination-servers/:id', expected: adminOnly(200) },
  { method: 'DELETE', url: '/api/admin/destination-servers/:id', expected: adminOnly(200) },

  // Saved SSH servers: the owner's; an admin reads and changes them but never their secrets.
  { method: 'GET', url: '/api/ssh-servers', expected: signedIn(200) },
  { method: 'POST', url: '/api/ssh-servers', expected: signedIn(201) },
  { method: 'GET', url: '/api/ssh-servers/:id', expected: ownerOrAdmin(200) },
  { method: 'PATCH', url: '/api/ssh-servers/:id', expected: ownerOrAdmin(200) },
  { method: 'DELETE', url: '/api/ssh-servers/:id', expected: ownerOrAdmin(200) },
  { method: 'POST', url: '/api/ssh-servers/:id/check', expected: ownerOrAdmin(200) },
  { method: 'POST', url: '/api/ssh-servers/:id/forget-host-key', expected: ownerOrAdmin(200) },
  // The scan and adoption log in first: port 1 of loopback refuses, so the caller allowed in
  // gets the 502 that names it, the others what they get anywhere.
  { method: 'POST', url: '/api/ssh-servers/:id/scan', expected: ownerOrAdmin(502) },
  { method: 'POST', url: '/api/ssh-servers/:id/adopt', expected: ownerOrAdmin(502) },
  // The per-server actions start a background run (202) and read it back.
  { method: 'POST', url: '/api/ssh-servers/:id/redeploy-all', expected: ownerOrAdmin(202) },
  { method: 'POST', url: '/api/ssh-servers/:id/check-certificates', expected: ownerOrAdmin(202) },
  { method: 'GET', url: '/api/ssh-servers/:id/runs/latest', expected: ownerOrAdmin(200) },
  { method: 'GET', url: '/api/ssh-servers/:id/runs/:runId', expected: ownerOrAdmin(200) },
  { method: 'POST', url: '/api/ssh-servers/:id/delete-with-sites', expected: ownerOrAdmin(200) },

  // The admin panel.
  { method: 'GET', url: '/api/admin/stats/users', expected: adminOnly(200) },
  { method: 'GET', url: '/api/admin/stats/proxies-by-user', expected: adminOnly(200) },
  { method: 'GET', url: '/api/admin/all-proxies', expected: adminOnly(200) },
  { method: 'PUT', url: '/api/admin/proxy-configurations/:id', expected: adminOnly(200) },
  { method: 'GET', url: '/api/admin/audit-log', expected: adminOnly(200) },
  { method: 'GET', url: '/api/admin/users', expected: adminOnly(200) },
  { method: 'PATCH', url: '/api/admin/users/:id/role', expected: adminOnly(200) },
  { method: 'GET', url: '/api/admin/users/:id/limits', expected: adminOnly(200) },
  { method: 'PUT', url: '/api/admin/users/:id/limits', expected: adminOnly(200) },
];

export const routeKey = (method: string, url: string) => `${method} ${url}`;
