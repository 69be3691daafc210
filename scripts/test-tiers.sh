#!/usr/bin/env bash
# Every test tier, as three chains side by side:
#   check: typecheck, then lint (one core for two minutes: run first, the other core had nothing
#          to do, and the chains below waited for it);
#   lab:   Vitest's lab and testbed projects, then the browser specs on the lab;
#   rest:  the build, Vitest's other projects, then the other browser specs.
# The lab chain mostly waits on real servers (sshd, nginx, certbot, Pebble) while the rest keeps
# the CPU busy, so each chain's browser tier starts as soon as its own Vitest tier ends instead
# of both waiting for the slower one. Any chain failing stops the others. The build runs once, in
# the rest chain under the build lock; the lab chain's browser tier waits on that lock and reuses
# it. Biome and tsc read no file the tiers write (dist/, .test-dist-*/ and artifacts/ are ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
# Every tier runs on Node 24 LTS, fetched by node-runtime.sh when the machine's node is another line.
PATH=$(bash scripts/node-runtime.sh test)
export PATH
# Both Playwright runs add to one screenshots folder; it is emptied once, here.
rm -rf artifacts/screenshots
export E2E_KEEP_SCREENSHOTS=1 E2E_BUILT=1
# The lab Vitest files one at a time here (PORTICO_LAB_WORKERS can say otherwise). Two at once
# cut that tier from 1,017 s to 690 s in a clean-clone run on this 2-core machine, but the rest
# chain's Vitest, running beside it, went from 819 s to 1,303 s: the whole command is bound by
# CPU, and the lab's waits are what let the rest chain use it.
export PORTICO_LAB_WORKERS=${PORTICO_LAB_WORKERS:-1}
# The lab's browser specs two files at once, each worker with a lab and a Portico of its own: they
# start as the rest chain's browser tier nears its end, and ran alone for its last eight minutes.
lab='npx vitest run --project lab --project testbed && E2E_LAB_WORKERS=2 E2E_RUN_NAME=lab E2E_PORT=3110 E2E_CLOSED_PORT=3111 npx playwright test --project lab'
rest='flock /tmp/portico-build.lock npm run build && npx vitest run --project shared --project server --project web --project web-isolated && npx playwright test --project desktop'
check='npm run typecheck && npm run lint'
exec npx concurrently --names check,lab,rest --kill-others-on-fail --success all "$check" "$lab" "$rest"
