import type { TMessage } from '../../lib/app-error';

/** The custom deployment script is a .sh text file of at most 64 KiB (docs/PRODUCT.md#custom-deployment-script). */
export const MAX_SCRIPT_BYTES = 64 * 1024;

// Letters, digits, dot, hyphen, underscore; no leading dot or hyphen; .sh at the end. The name
// is only ever displayed and stored, but it must still not carry paths or markup.
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,96}\.sh$/;

export interface TScriptFile {
  name: string;
  content: string;
}

/** The refusal for a file name, or undefined when it is acceptable. */
export function nameProblem(name: string): TMessage | undefined {
  if (!/\.sh$/.test(name)) return { key: 'checks.script.extension' };
  if (!SAFE_NAME.test(name)) return { key: 'checks.script.name' };
  return undefined;
}

/** The script as text, or the refusal: empty, over 64 KiB, or not UTF-8 text (binary). */
export function decodeScript(bytes: Buffer): { text: string } | { problem: TMessage } {
  if (bytes.length === 0) return { problem: { key: 'checks.script.empty' } };
  if (bytes.length > MAX_SCRIPT_BYTES) return { problem: { key: 'checks.script.tooLarge' } };
  if (bytes.includes(0)) return { problem: { key: 'checks.script.binary' } };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text };
  } catch {
    return { problem: { key: 'checks.script.binary' } };
  }
}
