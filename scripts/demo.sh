#!/usr/bin/env bash
# The main job: sets everything up on a fresh machine (Rust target,
# wasm-bindgen-cli, both bindings, the demo's npm install), then runs the
# stealth demo on a real Foundry scene. Arguments go to demo/run.mjs:
#   bash scripts/demo.sh --seed 42
#   bash scripts/demo.sh --scenario demo/scenarios/nort-gate-opposed.json --json
# Without --scenario it plays the three shipped scenarios: opposed, percentile,
# then the night run (nort-gate-night.json).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build.sh >&2
(cd demo && npm install --no-audit --no-fund --silent >&2)
exec node demo/run.mjs "$@"
