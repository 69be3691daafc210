#!/usr/bin/env bash
# The one test command: every tier, in order of cost, on Node 24 LTS (scripts/node-runtime.sh).
# Fails on the first failing tier.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prereqs.sh
PATH=$(bash scripts/node-runtime.sh test)
export PATH
npm run typecheck
npm run lint
bash scripts/test-tiers.sh
