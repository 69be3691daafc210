#!/usr/bin/env bash
# Every Vitest tier. In one Vitest process the lab tiers (two files at a time, each with a lab
# of its own: testbed/src/file-parallelism.ts) run as a group of their own only after all the
# others, so their minutes of mostly waiting on real servers would follow the rest. Two Vitest
# processes instead: the lab tiers beside the others. Either failing stops both. Extra arguments
# go to both (a file filter).
set -euo pipefail
cd "$(dirname "$0")/.."
# Every tier runs on Node 24 LTS, fetched by node-runtime.sh when the machine's node is another line.
PATH=$(bash scripts/node-runtime.sh test)
export PATH
lab=(vitest run --project lab --project testbed "$@")
rest=(vitest run --project shared --project server --project web --project web-isolated "$@")
exec npx concurrently --names lab,rest --kill-others-on-fail --success all \
  "$(printf '%q ' "${lab[@]}")" "$(printf '%q ' "${rest[@]}")"
