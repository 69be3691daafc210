import { setFlagsFromString } from 'node:v8';

/**
 * Imported first by the server and the CLI, before PGlite compiles PostgreSQL's 9 MB of
 * WebAssembly. V8 compiles it twice by default: at once with its baseline compiler (Liftoff), then
 * again, optimised, in the background (TurboFan). Portico's queries are small and most of their
 * time is spent in JavaScript (the wire protocol, the mapping), so the second compilation buys
 * little and costs half a second of CPU at every start and 40-90 MB of resident code for good.
 * Figures: docs/PERFORMANCE.md, "Memory and the reads".
 *
 * `--liftoff-only` alone is not enough set at run time: V8 applies a flag's implications (here,
 * no tier-up, static or dynamic) only when it parses the command line, and on Node 24 the tier-up
 * then happens anyway (an idle server on Node 24.22: 283 MiB with the flag alone, 192 MiB with its
 * implications spelt out). `wasm-flags.test.ts` checks that a hot function stays on Liftoff.
 */
export const WASM_FLAGS = '--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering';

setFlagsFromString(WASM_FLAGS);
