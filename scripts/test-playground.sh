#!/usr/bin/env bash
# The playground page (playground/) in headless Chromium: prepares the
# npm package's wasm and the fixtures (scripts/playground.sh --prepare),
# installs the test dependencies (npm ci in tests/playground), Debian's
# Chromium and the demo's packages when missing, then runs
# tests/playground/ (a run played with the mouse, the link, bad input, the
# export the demo plays; screenshots compared with the reviewed copies in
# tests/playground/screenshots/, FURTIVE_UPDATE_SCREENSHOTS=1 rewrites them).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/playground.sh --prepare
echo "== npm ci (tests/playground)"
(cd tests/playground && npm ci --no-audit --no-fund --silent)
if [ ! -x /usr/bin/chromium ]; then
  echo "== installing chromium (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# The export test runs the demo on the exported scenario.
(cd demo && npm install --no-audit --no-fund --silent)
echo "== playground (headless Chromium)"
node --test --test-concurrency=1 tests/playground/
