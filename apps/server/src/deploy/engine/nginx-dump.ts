import { prefixed } from './step-context';

// Only the lines Portico looks at: which file is which, server names, the bucket size.
// Marked lines, so that the remote preflight can carry them among its other facts.
export const DUMP_PROBE = `nginx -T 2>/dev/null | grep -E '^# configuration file |^[[:space:]]*(server_name|server_names_hash_bucket_size|auth_basic_user_file)[[:space:]]' | sed 's/^/PORTICO_DUMP:/'`;

/** The relevant lines of `nginx -T` from what `DUMP_PROBE` printed. */
export function dumpOf(stdout: string): string {
  return prefixed(stdout, 'PORTICO_DUMP:').join('\n');
}

function eachDirective(text: string, name: string, visit: (file: string, value: string) => void) {
  let file = '';
  const directive = new RegExp(`^\\s*${name}\\s+([^;]*);`);
  for (const line of text.split('\n')) {
    const header = /^# configuration file (.+):$/.exec(line);
    if (header) {
      file = header[1]!;
      continue;
    }
    const m = directive.exec(line);
    if (m) visit(file, m[1]!.trim());
  }
}

/** Every `server_names_hash_bucket_size` in `nginx -T` output, with the file that sets it. */
export function bucketSizeSettings(text: string): { file: string; size: number }[] {
  const found: { file: string; size: number }[] = [];
  eachDirective(text, 'server_names_hash_bucket_size', (file, value) => {
    if (/^\d+$/.test(value)) found.push({ file, size: Number(value) });
  });
  return found;
}

/** Files whose `server_name` lists exactly this domain (exact names beat wildcards in nginx). */
export function serverNameOwners(text: string, domain: string): string[] {
  const files = new Set<string>();
  eachDirective(text, 'server_name', (file, value) => {
    if (value.split(/\s+/).some((name) => name.toLowerCase() === domain)) files.add(file);
  });
  return [...files];
}
