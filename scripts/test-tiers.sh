#!/usr/bin/env bash
# Every test tier after typecheck and lint. The build first (the browser tiers run what
# `npm start` serves), then three runs side by side:
#   rest:    Vitest's shared, server and web projects, then the browser specs without the lab;
#   lab:     Vitest's lab and testbed projects (their files one at a time: they share a lab);
#   lab-e2e: the browser specs on a lab of their own.
# The lab runs mostly wait on real servers (sshd, nginx, certbot, Pebble) while the rest keeps
# the CPU busy; one after the other they left a core idle for half of the run. Either failing
# stops the others.
set -euo pipefail
cd "$(dirname "$0")/.."
flock /tmp/portico-build.lock npm run build
# The Playwright runs add to one screenshots folder; it is emptied once, here.
rm -rf artifacts/screenshots
export E2E_KEEP_SCREENSHOTS=1 E2E_BUILT=1
rest='npx vitest run --project shared --project server --project web && npx playwright test --project desktop'
lab='npx vitest run --project lab --project testbed'
labE2e='E2E_RUN_NAME=lab E2E_PORT=3110 E2E_CLOSED_PORT=3111 npx playwright test --project lab'
exec npx concurrently --names rest,lab,lab-e2e --kill-others-on-fail --success all \
  "$rest" "$lab" "$labE2e"
