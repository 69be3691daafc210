/**
 * A unified diff of two texts by lines (`diff -u` style, three lines of context), for a plan to
 * show what a deployment would change in a file. Pure. Site files are short; past
 * `MAX_CELLS` line pairs the whole old text is shown removed and the new one added, so the
 * work stays bounded whatever the server holds.
 */

const CONTEXT = 3;
const MAX_CELLS = 4_000_000;

type TOp = { kind: ' ' | '-' | '+'; line: string };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The edit script by longest common subsequence (common prefix and suffix taken first). */
function editScript(a: string[], b: string[]): TOp[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const head: TOp[] = a.slice(0, start).map((line) => ({ kind: ' ', line }));
  const tail: TOp[] = a.slice(endA).map((line) => ({ kind: ' ', line }));
  if (midA.length * midB.length > MAX_CELLS) {
    return [
      ...head,
      ...midA.map((line): TOp => ({ kind: '-', line })),
      ...midB.map((line): TOp => ({ kind: '+', line })),
      ...tail,
    ];
  }
  const n = midA.length;
  const m = midB.length;
  // lcs[i][j]: the longest common subsequence of midA[i..] and midB[j..].
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] =
        midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const mid: TOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      mid.push({ kind: ' ', line: midA[i]! });
      i++;
      j++;
    } else if (j === m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      mid.push({ kind: '-', line: midA[i++]! });
    } else {
      mid.push({ kind: '+', line: midB[j++]! });
    }
  }
  return [...head, ...mid, ...tail];
}

function range(start: number, count: number): string {
  // diff -u: a hunk of no lines names the line before it.
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? String(start) : `${start},${count}`;
}

/**
 * `--- path` / `+++ path` and the hunks; '' when the texts are the same. `before` null means
 * the file does not exist yet (`/dev/null`, as `diff -N` writes it).
 */
export function unifiedDiff(path: string, before: string | null, after: string): string {
  if (before === after) return '';
  const ops = editScript(splitLines(before ?? ''), splitLines(after));
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  if (changed.length === 0) return '';
  const out = [`--- ${before === null ? '/dev/null' : path}`, `+++ ${path}`];
  let k = 0;
  while (k < changed.length) {
    const from = Math.max(0, changed[k]! - CONTEXT);
    let to = changed[k]!;
    while (k + 1 < changed.length && changed[k + 1]! - to <= 2 * CONTEXT) to = changed[++k]!;
    k++;
    const end = Math.min(ops.length, to + CONTEXT + 1);
    // Line numbers where the hunk starts in each text: the ops before it, counted per side.
    let oldStart = 1;
    let newStart = 1;
    for (const op of ops.slice(0, from)) {
      if (op.kind !== '+') oldStart++;
      if (op.kind !== '-') newStart++;
    }
    const hunk = ops.slice(from, end);
    const oldCount = hunk.filter((op) => op.kind !== '+').length;
    const newCount = hunk.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
  }
  return `${out.join('\n')}\n`;
}
