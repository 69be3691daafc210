import * as React from 'react';

const JOINTS = /(?<=[./@:-])/;

/**
 * Text that may wrap after each `.`, `/`, `@`, `:` and `-`: a long domain, e-mail or URL breaks
 * at its natural joints ("example." / "com") instead of mid-word. Pair it with
 * `[overflow-wrap:anywhere]`, which still breaks a single over-long part where it must.
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(JOINTS);
  return (
    <>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
        <React.Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </React.Fragment>
      ))}
    </>
  );
}
