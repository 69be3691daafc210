#!/usr/bin/env bash
# npm start: build, then serve, on a node `engines` allows: the machine's, or else the pinned
# Node 24 LTS that node-runtime.sh fetches from the npm registry (Debian's packaged Node is 20).
set -euo pipefail
cd "$(dirname "$0")/.."
PATH=$(bash scripts/node-runtime.sh start)
export PATH
npm run build
exec node apps/server/dist/main.js
