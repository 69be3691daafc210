import {
  SCANNED_NAME,
  SCANNED_PATH,
  type TScannedCertificate,
  type TScannedSite,
  type TSiteScan,
  ZSiteScan,
} from '@portico/shared/ssh-servers/site-scan';
import { serverBlocks, splitDump, type TServerBlock } from '../../deploy/nginx-config';
import { formatTarget, normalizeTarget } from '../../deploy/validate';
import type { TScanAnswer } from './site-scan-script';

/** A Portico proxy whose domain the scan met, as the repository reads it. */
export interface TKnownProxy {
  id: string;
  domain: string;
  userId: string;
  sshServerId: string | null;
  origin: 'portico' | 'adopted';
  adoptedSha256: string | null;
}

export interface TScanContext {
  serverId: string;
  /** The actor: a proxy of someone else is named as a conflict, never shown by id. */
  viewerId: string;
  viewerIsAdmin: boolean;
  proxies: TKnownProxy[];
  now: Date;
}

const MAX_SITES = 5000;
const MARKER = '# Managed by Portico';

const printable = (value: string, max: number) =>
  value.length <= max && /^[\x20-\x7e]*$/.test(value) ? value : null;
const safePath = (value: string | null | undefined) =>
  value && SCANNED_PATH.test(value) ? value : null;

/** Portico writes `proxy-<domain>` files whose first line is its marker (deploy/nginx-site.ts). */
function porticoFiles(files: { path: string; text: string }[]): Set<string> {
  const marked = new Set<string>();
  for (const file of files) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    if (/^proxy-/.test(name) && file.text.trimStart().startsWith(MARKER)) marked.add(file.path);
  }
  return marked;
}

function expiry(text: string): string | null {
  const time = Date.parse(text);
  return text !== '' && Number.isFinite(time) ? new Date(time).toISOString() : null;
}

function certificatesOf(answer: TScanAnswer): TScannedCertificate[] {
  const allowed = (v: string) => (/^[a-z0-9_-]{1,40}$/.test(v) ? v : null);
  return answer.certificates
    .filter((c) => SCANNED_NAME.test(c.name))
    .slice(0, 500)
    .map((c) => ({
      name: c.name,
      domains: c.domains
        .map((d) => d.toLowerCase())
        .filter((d) => SCANNED_NAME.test(d))
        .slice(0, 100),
      expiresAt: expiry(c.expires),
      authenticator: allowed(c.authenticator),
      installer: allowed(c.installer),
      path: safePath(c.path),
    }));
}

/** The certbot certificate whose `live/<name>/` holds the file a block names. */
function certificateFor(path: string | null, certificates: TScannedCertificate[]) {
  const name = path ? /\/live\/([^/]+)\/[^/]+$/.exec(path)?.[1] : undefined;
  return name ? (certificates.find((c) => c.name === name) ?? null) : null;
}

function targetOf(proxyPass: string | undefined): string | null {
  if (!proxyPass) return null;
  try {
    return formatTarget(normalizeTarget(proxyPass));
  } catch {
    return null;
  }
}

type TDraft = Omit<TScannedSite, 'class' | 'reason' | 'proxyId' | 'changedSinceAdoption'>;

function draftOf(
  name: string,
  blocks: TServerBlock[],
  answer: TScanAnswer,
  certs: TScannedCertificate[],
): TDraft {
  const serving =
    blocks.find((b) => b.proxyPass.length > 0) ??
    blocks.find((b) => b.returns.length === 0) ??
    blocks[0]!;
  const tlsBlock = blocks.find((b) => b.sslCertificate !== null);
  const certificatePath = safePath(tlsBlock?.sslCertificate);
  const certificate = certificateFor(certificatePath, certs);
  const root = serving.proxyPass.find((p) => p.location === '/');
  const file = safePath(serving.file) ?? '/';
  return {
    serverName: name,
    file,
    files: [...new Set(blocks.map((b) => safePath(b.file)).filter((f) => f !== null))].slice(0, 20),
    fileSha256: answer.hashes.get(serving.file) ?? null,
    ports: [...new Set(blocks.flatMap((b) => b.listen.map((l) => l.port)))]
      .sort((a, b) => a - b)
      .slice(0, 20),
    tls: blocks.some((b) => b.listen.some((l) => l.ssl) || b.sslCertificate !== null),
    certificatePath,
    certificate: certificate?.name ?? null,
    certificateExpiresAt: certificate?.expiresAt ?? null,
    target: targetOf(root?.target),
    proxyPass: serving.proxyPass
      .map((p) => printable(p.target, 300))
      .filter((p) => p !== null)
      .slice(0, 20),
    root: safePath(serving.root),
    redirect: printable(blocks.flatMap((b) => b.returns)[0] ?? '', 300) || null,
  };
}

/** Two blocks answer the same name on the same port: nginx ignores one of them. */
function servedTwice(blocks: TServerBlock[]): boolean {
  const seen = new Set<number>();
  for (const block of blocks) {
    for (const port of new Set(block.listen.map((l) => l.port))) {
      if (seen.has(port)) return true;
      seen.add(port);
    }
  }
  return false;
}

function classify(
  draft: TDraft,
  blocks: TServerBlock[],
  marked: Set<string>,
  testOk: boolean,
  context: TScanContext,
): Pick<TScannedSite, 'class' | 'reason' | 'proxyId' | 'changedSinceAdoption'> {
  const proxy = context.proxies.find((p) => p.domain === draft.serverName);
  const visible = proxy && (proxy.userId === context.viewerId || context.viewerIsAdmin);
  const proxyId = visible ? proxy.id : null;
  const here = proxy?.sshServerId === context.serverId;
  const changedSinceAdoption =
    !!proxy && here && proxy.origin === 'adopted' && proxy.adoptedSha256 !== draft.fileSha256;
  const base = { proxyId, changedSinceAdoption };
  if (!testOk) return { ...base, class: 'broken', reason: 'nginx_test_failed' };
  if (blocks.some((b) => marked.has(b.file))) {
    return { ...base, class: 'managed', reason: 'portico_file' };
  }
  if (proxy && here && proxy.origin === 'adopted') {
    return { ...base, class: 'adopted', reason: 'adopted_here' };
  }
  if (servedTwice(blocks)) return { ...base, class: 'conflict', reason: 'served_twice' };
  if (proxy) return { ...base, class: 'conflict', reason: 'owned_elsewhere' };
  if (draft.target) return { ...base, class: 'adoptable', reason: 'proxy' };
  if (draft.proxyPass.length > 0) {
    return { ...base, class: 'not_proxy', reason: 'proxy_unreadable_target' };
  }
  if (draft.redirect) return { ...base, class: 'not_proxy', reason: 'redirect' };
  if (draft.root) return { ...base, class: 'not_proxy', reason: 'static' };
  return { ...base, class: 'not_proxy', reason: 'other' };
}

/** The server names of the dump's blocks, each plain name once (others are only counted). */
export function scannedNames(dump: string): string[] {
  const names = new Set<string>();
  for (const block of serverBlocks(splitDump(dump))) {
    for (const name of block.serverNames)
      if (SCANNED_NAME.test(name) && name !== '_') names.add(name);
  }
  return [...names];
}

/**
 * The scan's answer from what the server said and which Portico proxies hold its names: one
 * site per server name, classified (managed, adopted, adoptable, not a proxy, conflict, broken).
 */
export function buildSiteScan(answer: TScanAnswer, context: TScanContext): TSiteScan {
  const files = splitDump(answer.dump);
  const blocks = serverBlocks(files);
  const marked = porticoFiles(files);
  const certificates = certificatesOf(answer);
  const byName = new Map<string, TServerBlock[]>();
  let skippedNames = 0;
  for (const block of blocks) {
    for (const name of new Set(block.serverNames)) {
      if (!SCANNED_NAME.test(name)) {
        skippedNames++;
        continue;
      }
      if (!safePath(block.file)) continue;
      byName.set(name, [...(byName.get(name) ?? []), block]);
    }
  }
  const testOk = answer.nginxTestExit === 0;
  const sites: TScannedSite[] = [];
  for (const [name, own] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    if (sites.length >= MAX_SITES) break;
    const draft = draftOf(name, own, answer, certificates);
    sites.push({ ...draft, ...classify(draft, own, marked, testOk, context) });
  }
  const output = answer.nginxTest.replace(/[^\x20-\x7e\n\t]/g, '').slice(0, 4000);
  return ZSiteScan.parse({
    scannedAt: context.now.toISOString(),
    nginxTest: { ok: testOk, output },
    sites,
    certificates,
    skippedNames,
    truncated: answer.truncated || byName.size > MAX_SITES,
  });
}
