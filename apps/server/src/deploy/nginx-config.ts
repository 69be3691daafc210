/**
 * A small reader of `nginx -T` output for the site scan (modules/ssh-servers/site-scan.ts): the
 * dump comes from a server Portico does not control, so every loop is bounded (depth, tokens,
 * includes) and nothing here throws on malformed input; what it cannot read it leaves out.
 */

export interface TDumpFile {
  path: string;
  text: string;
}

export interface TConfigNode {
  name: string;
  args: string[];
  line: number;
  children?: TConfigNode[];
}

export interface TListen {
  port: number;
  ssl: boolean;
}

export interface TServerBlock {
  file: string;
  line: number;
  serverNames: string[];
  listen: TListen[];
  sslCertificate: string | null;
  sslCertificateKey: string | null;
  /** Each `proxy_pass` with the location it sits in (`/` for the site's root). */
  proxyPass: { location: string; target: string }[];
  root: string | null;
  /** `return` directives (redirects), as written. */
  returns: string[];
}

const MAX_DEPTH = 24;
const MAX_TOKENS = 200_000;
const MAX_FILES = 2_000;
const MAX_INCLUDE_DEPTH = 8;
const MAX_BLOCKS = 5_000;

/** The dump's files, each under its `# configuration file PATH:` header. */
export function splitDump(dump: string): TDumpFile[] {
  const files: TDumpFile[] = [];
  let current: { path: string; lines: string[] } | null = null;
  for (const line of dump.split('\n')) {
    const header = /^# configuration file (\/[^\n]{0,4095}):$/.exec(line);
    if (header) {
      if (current) files.push({ path: current.path, text: current.lines.join('\n') });
      if (files.length >= MAX_FILES) return files;
      current = { path: header[1]!, lines: [] };
    } else if (current) {
      current.lines.push(line);
    }
  }
  if (current) files.push({ path: current.path, text: current.lines.join('\n') });
  return files;
}

interface TToken {
  value: string;
  /** `;`, `{`, `}` as syntax, not inside quotes. */
  special: boolean;
  line: number;
}

function tokenize(text: string): TToken[] {
  const tokens: TToken[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length && tokens.length < MAX_TOKENS) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === ';' || c === '{' || c === '}') {
      tokens.push({ value: c, special: true, line });
      i++;
    } else if (c === '"' || c === "'") {
      const start = line;
      let value = '';
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        if (text[i] === '\n') line++;
        value += text[i];
        i++;
      }
      i++;
      tokens.push({ value, special: false, line: start });
    } else {
      let value = '';
      while (i < text.length && !/[\s;{}"']/.test(text[i]!)) {
        // `${var}` keeps its braces: they are part of the word, not a block.
        if (text[i] === '$' && text[i + 1] === '{') {
          const end = text.indexOf('}', i);
          if (end === -1) break;
          value += text.slice(i, end + 1);
          i = end + 1;
          continue;
        }
        value += text[i];
        i++;
      }
      if (value === '') i++;
      else tokens.push({ value, special: false, line });
    }
  }
  return tokens;
}

/** The directives of one file as a tree; unbalanced braces end the block, never the reader. */
export function parseConfig(text: string): TConfigNode[] {
  const tokens = tokenize(text);
  let at = 0;
  function block(depth: number): TConfigNode[] {
    const nodes: TConfigNode[] = [];
    let words: TToken[] = [];
    while (at < tokens.length) {
      const token = tokens[at++]!;
      if (!token.special) {
        words.push(token);
        continue;
      }
      if (token.value === '}') {
        if (depth > 0) return nodes;
        words = [];
        continue;
      }
      const [head, ...rest] = words;
      words = [];
      if (!head) {
        if (token.value === '{' && depth < MAX_DEPTH) block(depth + 1);
        continue;
      }
      const node: TConfigNode = {
        name: head.value,
        args: rest.map((w) => w.value),
        line: head.line,
      };
      if (token.value === '{') node.children = depth < MAX_DEPTH ? block(depth + 1) : [];
      nodes.push(node);
    }
    return nodes;
  }
  return block(0);
}

/** An include's pattern as a regular expression over whole paths (nginx's glob: `*`, `?`). */
function includePattern(pattern: string, base: string): RegExp {
  const full = pattern.startsWith('/') ? pattern : `${base}/${pattern}`;
  const source = full
    .split('')
    .map((ch) =>
      ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}

function listenOf(args: string[]): TListen | null {
  const address = args[0];
  if (!address || address.startsWith('unix:')) return null;
  const port = /^(?:.*:)?(\d{1,5})$/.exec(address)?.[1];
  const value = port === undefined ? 80 : Number(port);
  if (value < 1 || value > 65535) return null;
  return { port: value, ssl: args.includes('ssl') };
}

interface TScanContext {
  files: Map<string, TConfigNode[]>;
  base: string;
}

/** A block's directives with its includes put in place, as nginx reads them. */
function expand(nodes: TConfigNode[], context: TScanContext, depth: number): TConfigNode[] {
  const out: TConfigNode[] = [];
  for (const node of nodes) {
    if (node.name === 'include' && node.args[0] && !node.children) {
      if (depth >= MAX_INCLUDE_DEPTH) continue;
      const pattern = includePattern(node.args[0], context.base);
      for (const [path, parsed] of context.files) {
        if (pattern.test(path)) out.push(...expand(parsed, context, depth + 1));
      }
      continue;
    }
    out.push(node);
  }
  return out;
}

function describeServer(file: string, server: TConfigNode, context: TScanContext): TServerBlock {
  const block: TServerBlock = {
    file,
    line: server.line,
    serverNames: [],
    listen: [],
    sslCertificate: null,
    sslCertificateKey: null,
    proxyPass: [],
    root: null,
    returns: [],
  };
  const visit = (nodes: TConfigNode[], location: string | null, depth: number) => {
    for (const node of expand(nodes, context, 0)) {
      if (location === null && node.name === 'server_name') {
        block.serverNames.push(...node.args.map((n) => n.toLowerCase()));
      } else if (location === null && node.name === 'listen') {
        const listen = listenOf(node.args);
        if (listen) block.listen.push(listen);
      } else if (location === null && node.name === 'ssl_certificate' && node.args[0]) {
        block.sslCertificate ??= node.args[0];
      } else if (location === null && node.name === 'ssl_certificate_key' && node.args[0]) {
        block.sslCertificateKey ??= node.args[0];
      } else if (node.name === 'proxy_pass' && node.args[0]) {
        block.proxyPass.push({ location: location ?? '/', target: node.args[0] });
      } else if (node.name === 'root' && node.args[0] && (location === null || location === '/')) {
        block.root ??= node.args[0];
      } else if (node.name === 'return' && node.args.length > 0) {
        block.returns.push(node.args.join(' '));
      } else if (node.children && depth < MAX_DEPTH) {
        if (node.name === 'location') visit(node.children, node.args.join(' '), depth + 1);
        else if (node.name === 'if') visit(node.children, location, depth + 1);
      }
    }
  };
  visit(server.children ?? [], null, 0);
  if (block.listen.length === 0) block.listen.push({ port: 80, ssl: false });
  return block;
}

/**
 * Every `server {}` of the http context in a dump: at the top of a file nginx includes inside
 * `http {}` (sites-enabled, conf.d) or inside `http {}` itself, with the server's own includes
 * read in. Servers of `stream {}` and `mail {}`, and files included there, are left out.
 */
export function serverBlocks(files: TDumpFile[]): TServerBlock[] {
  const parsed = new Map<string, TConfigNode[]>();
  for (const file of files.slice(0, MAX_FILES)) {
    if (!parsed.has(file.path)) parsed.set(file.path, parseConfig(file.text));
  }
  const main = files[0]?.path ?? '/etc/nginx/nginx.conf';
  const context: TScanContext = {
    files: parsed,
    base: main.slice(0, main.lastIndexOf('/')) || '/',
  };
  const notHttp = new Set<string>();
  const markIncludes = (nodes: TConfigNode[], depth: number) => {
    for (const node of nodes) {
      if (node.name === 'include' && node.args[0]) {
        const pattern = includePattern(node.args[0], context.base);
        for (const path of parsed.keys()) if (pattern.test(path)) notHttp.add(path);
      } else if (node.children && depth < MAX_DEPTH) markIncludes(node.children, depth + 1);
    }
  };
  for (const nodes of parsed.values()) {
    for (const node of nodes) {
      if ((node.name === 'stream' || node.name === 'mail') && node.children) {
        markIncludes(node.children, 0);
      }
    }
  }
  const blocks: TServerBlock[] = [];
  for (const [path, nodes] of parsed) {
    if (notHttp.has(path)) continue;
    const top = nodes.flatMap((node) =>
      node.name === 'http' && node.children ? node.children : [node],
    );
    for (const node of top) {
      if (node.name !== 'server' || !node.children) continue;
      if (blocks.length >= MAX_BLOCKS) return blocks;
      blocks.push(describeServer(path, node, context));
    }
  }
  return blocks;
}
