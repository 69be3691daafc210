// The server's entry point. V8's flags are set before anything else loads: a static import of the
// server would have every package it uses evaluated first (ESM runs a module's imports before
// its body, and the built bundle keeps npm packages as imports of their own).
// How V8 compiles PGlite's WebAssembly:
import './lib/wasm-flags';
// The young generation kept small while the start allocates:
import './lib/start-up-heap';

import('./server').catch((error: unknown) => {
  console.error('portico: start-up failed:', error);
  process.exit(1);
});
