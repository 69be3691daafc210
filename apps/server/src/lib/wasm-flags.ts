import { setFlagsFromString } from 'node:v8';

/**
 * Imported first by the server and the CLI, before PGlite compiles PostgreSQL's 9 MB of
 * WebAssembly. V8 compiles it twice by default: at once with its baseline compiler (Liftoff), then
 * again, optimised, in the background (TurboFan). Portico's queries are small and most of their
 * time is spent in JavaScript (the wire protocol, the mapping), so the second compilation buys
 * little and costs half a second of CPU at every start and 40-60 MB of resident code for good.
 * Figures: docs/PERFORMANCE.md, "Memory and the reads".
 */
setFlagsFromString('--liftoff-only');
