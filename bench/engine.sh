#!/usr/bin/env bash
# The engine's speed and size, an old commit against this checkout in one
# run: builds both (the old one in a `git archive` of it under $TMPDIR, kept
# for the next run), then bench/engine.mjs measures them and writes the
# "Engine" section of docs/performance.md. Not a test.
#
#   bash bench/engine.sh [old-commit]   # default: 0e3a19b, the old column of docs/performance.md
set -euo pipefail
cd "$(dirname "$0")/.."

old=$(git rev-parse "${1:-0e3a19bb1f58a0e0caa1a66dd200758f6165b95b}")
dir="${TMPDIR:-/tmp}/furtive-bench-${old:0:12}"
if [ ! -f "$dir/.built" ]; then
  rm -rf "$dir" && mkdir -p "$dir"
  git archive "$old" | tar -x -C "$dir"
  (cd "$dir" && bash scripts/build-node.sh && bash scripts/build-foundry.sh && bash scripts/build-wasm.sh)
  touch "$dir/.built"
fi
bash scripts/build.sh
bash scripts/build-foundry.sh
FURTIVE_BENCH_OLD="$old" node bench/engine.mjs "$dir"
