#!/usr/bin/env bash
# The one test command: typecheck, lint and every tier (scripts/test-tiers.sh), on Node 24 LTS
# (scripts/node-runtime.sh). Fails on the first failing tier.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prereqs.sh
PATH=$(bash scripts/node-runtime.sh test)
export PATH
bash scripts/test-tiers.sh
