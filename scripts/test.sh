#!/usr/bin/env bash
# The one test command: every tier, in order of cost. Fails on the first failing tier.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prereqs.sh
npm run typecheck
npm run lint
bash scripts/test-tiers.sh
