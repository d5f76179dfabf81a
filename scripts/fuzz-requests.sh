#!/usr/bin/env bash
# Fuzz of the GM's door for longer than CI: hostile requests from a player's
# console (tests/foundry/unit/request-fuzz.test.mjs) on Foundry v13 and v14.
# FURTIVE_FUZZ_SEED (default: the current time, printed, so a failure can be
# replayed) and FURTIVE_FUZZ_COUNT (requests per version, default 5000).
# Needs the module's engine built (scripts/build-foundry.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

test -f foundry-module/engine/browser.js || bash scripts/build-foundry.sh
(cd tests/foundry && npm ci --no-audit --no-fund --silent)

export FURTIVE_FUZZ_SEED="${FURTIVE_FUZZ_SEED:-$(date +%s)}"
export FURTIVE_FUZZ_COUNT="${FURTIVE_FUZZ_COUNT:-5000}"
echo "fuzz-requests: seed $FURTIVE_FUZZ_SEED, $FURTIVE_FUZZ_COUNT requests per Foundry version"
cd tests/foundry
node --experimental-vm-modules --test --test-concurrency=1 unit/request-fuzz.test.mjs
