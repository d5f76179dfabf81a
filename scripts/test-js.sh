#!/usr/bin/env bash
# The JavaScript suites of the npm package: builds both bindings, installs
# the test dependencies (npm ci in tests/js) and Debian's Chromium when
# missing, then runs the shared vectors on napi, wasm in Node and wasm in
# Chromium and the Foundry module's copy of the wasm engine (free functions
# and Session), the bad-input tests on every build, the Session tests, the
# scene functions and the SceneSight class on the shared Foundry fixtures, the generated types against the schema, the returned
# shapes against index.d.ts,
# the TypeScript check and the packed-tarball test. Runs every suite and
# exits non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build.sh
# The Foundry module's copy of the engine (foundry-module/engine/), which
# the vectors and the bad-input tests run on too.
bash scripts/build-foundry.sh

echo "== npm ci (tests/js)"
(cd tests/js && npm ci --no-audit --no-fund)

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing chromium (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# Every stage runs; each one's output is kept, and the failing tests of a
# failed stage are printed again at the end (scripts/failures.sh).
failed=()
failed_logs=()
logs=$(mktemp -d)
stage=0
run() {
  local name=$1
  shift
  echo "== $name"
  stage=$((stage + 1))
  local log="$logs/$stage.tap"
  if ! "$@" 2>&1 | tee "$log"; then
    failed+=("$name")
    failed_logs+=("$log")
  fi
}

for impl in napi wasm-node wasm-browser foundry-wasm; do
  run "vectors ($impl)" env FURTIVE_IMPL=$impl node --test tests/js/vectors.test.mjs
done
run "arguments (plain data and the replacer write the same text)" node --test tests/js/arguments.test.mjs
for impl in wasm-node foundry-wasm; do
  run "bad input (napi against $impl)" env FURTIVE_IMPL=$impl node --test tests/js/bad-input.test.mjs
done
run "Session (napi, wasm; bad input, session_lost)" node --test tests/js/session.test.mjs
run "scenes (napi, wasm; ../shared/fixtures)" node --test tests/js/scenes.test.mjs
run "SceneSight (napi, wasm; Nort Gate, updates, bad input)" node --test tests/js/scene-sight.test.mjs
run "generated types (npm/types.d.ts from npm/furtive.schema.json)" node --test tests/js/generated-types.test.mjs
run "shapes (golden results against index.d.ts)" node --test tests/js/shapes.test.mjs
run "situation modifiers (napi, wasm)" node --test tests/js/modifiers.test.mjs
run "what the engine tells (napi, wasm, the Foundry module's wasm): effects' attempts and views, standing, pairs" node --test tests/js/engine-tells.test.mjs
run "types (tsc --noEmit)" bash -c 'cd tests/js && npx tsc --noEmit -p tsconfig.json && echo "types: npm/index.d.ts checks against tests/js/types.ts"'
run "pack (npm pack, install, Node and Chromium)" node --test tests/js/pack.test.mjs

if [ ${#failed[@]} -gt 0 ]; then
  bash scripts/failures.sh "${failed_logs[@]}" >&2
  echo "test-js: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test-js: every JavaScript suite passed"
