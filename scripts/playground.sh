#!/usr/bin/env bash
# The playground page (playground/): builds the npm package's wasm when it
# is missing or older than the engine's sources (scripts/build-wasm.sh),
# copies the fixture scenes and SRD actors into playground/fixtures/
# (git-ignored; from ../shared/fixtures beside the repository, or
# FURTIVE_FIXTURES), then serves the page on localhost and prints its address.
#
#   bash scripts/playground.sh              # http://127.0.0.1:8080/playground/
#   bash scripts/playground.sh --port 9000
#   bash scripts/playground.sh --prepare    # build and copy only (the tests use it)
set -euo pipefail
cd "$(dirname "$0")/.."

# Built when missing, or older than the engine's sources (a pull, an edit).
wasm=npm/wasm/furtive_wasm_bg.wasm
if [ ! -f "$wasm" ] || [ ! -f npm/wasm/furtive_wasm.js ] ||
  [ -n "$(find crates Cargo.toml Cargo.lock -newer "$wasm" -print -quit)" ]; then
  echo "== building the npm package's wasm (scripts/build-wasm.sh)" >&2
  bash scripts/build-wasm.sh >&2
fi

fixtures=${FURTIVE_FIXTURES:-../shared/fixtures}
mkdir -p playground/fixtures
for file in scene-ocd-nort-gate.json scene-zahi-oota-warning-sign.json dnd5e-srd51-monsters.json dnd5e-srd52-monsters.json SOURCES.md; do
  if [ ! -f "$fixtures/$file" ]; then
    echo "playground: $fixtures/$file is missing; put shared/ beside the repository or set FURTIVE_FIXTURES" >&2
    exit 1
  fi
  cp "$fixtures/$file" playground/fixtures/
done

if [ "${1:-}" = "--prepare" ]; then
  exit 0
fi
exec node playground/serve.mjs "$@"
