#!/usr/bin/env bash
# Tests the Foundry module against the fake Foundry (tests/foundry/): builds
# the module and dist/furtive.zip, installs the test dependencies (npm ci),
# installs Chromium with apt only when /usr/bin/chromium is missing, then runs
# the Node unit tests, the headless-Chromium test and the type check
# (tsc --checkJs over foundry-module/ with its jsconfig.json), and checks the zip
# (browser/install.test.mjs installs it into a temporary Data/modules/furtive/).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build-foundry.sh

echo "== dist/furtive.zip contents"
test -f dist/furtive.zip || { echo "test-foundry: dist/furtive.zip is missing" >&2; exit 1; }
listing=$(unzip -Z1 dist/furtive.zip)
for required in module.json engine/browser.js engine/arguments.js engine/errors.js engine/classes.js engine/signatures.js engine/explain.js engine/explanations.js engine/wasm/furtive_wasm_bg.wasm engine/wasm/furtive_wasm.js lang/en.json lang/fr.json scripts/main.mjs; do
  if ! grep -qx "$required" <<<"$listing"; then
    echo "test-foundry: dist/furtive.zip lacks $required" >&2
    exit 1
  fi
done
echo "dist/furtive.zip has module.json, the wasm, lang/en.json, lang/fr.json"

echo "== npm ci (tests/foundry)"
(cd tests/foundry && npm ci --no-audit --no-fund)

if [ ! -x /usr/bin/chromium ]; then
  echo "test-foundry: installing chromium"
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi

# Every stage runs even when an earlier one fails; the script fails at the
# end, after the failing tests of each failed stage (scripts/failures.sh).
failed=()
logs=$(mktemp -d)

echo "== Foundry module: Node unit tests (fake Foundry, real module, real wasm)"
(cd tests/foundry && node --experimental-vm-modules --test --test-concurrency=1 unit/) 2>&1 | tee "$logs/unit.tap" || failed+=("unit tests")

echo "== Foundry module: headless Chromium"
(cd tests/foundry && node --test --test-concurrency=1 browser/) 2>&1 | tee "$logs/browser.tap" || failed+=("browser test")

echo "== Foundry module: tsc --checkJs against foundry-module/types/foundry.d.ts"
tests/foundry/node_modules/.bin/tsc --project foundry-module/jsconfig.json || failed+=("type check")

if [ ${#failed[@]} -gt 0 ]; then
  bash scripts/failures.sh "$logs"/*.tap >&2
  echo "test-foundry: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test-foundry: all passed"
