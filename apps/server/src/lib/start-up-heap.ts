import { setFlagsFromString } from 'node:v8';

/**
 * Imported by the server's entry point before anything else but lib/wasm-flags.ts. Loading the
 * modules and migrating the database keep most of what they allocate, and V8 doubles its young
 * generation whenever enough survives a scavenge: by the time Portico listens it has grown to
 * its largest (32 MiB, about 29 MiB of it resident), which an idle server then holds until V8's
 * memory reducer gives it back some 16 s later. So during the start the young generation does not
 * grow (what survives is promoted, as it would be anyway); once Portico listens, `endStartUpHeap`
 * gives V8 its own growth back, and under load the young generation grows as before, so requests
 * cost what they did. Figures: docs/PERFORMANCE.md, "Memory and the reads".
 */
const GROWTH_FLAG = '--semi-space-growth-factor';
/** V8's default growth factor. */
const V8_DEFAULT_GROWTH = 2;

// An operator's own choice of the flag is left alone.
const operatorChose = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) =>
  arg.replaceAll('_', '-').includes(GROWTH_FLAG),
);

if (!operatorChose) setFlagsFromString(`${GROWTH_FLAG}=1`);

/** The start is over: the young generation may grow again with the load. */
export function endStartUpHeap(): void {
  if (!operatorChose) setFlagsFromString(`${GROWTH_FLAG}=${V8_DEFAULT_GROWTH}`);
}
