#!/usr/bin/env bash
# Builds everything the npm package ships: the napi addon and the wasm
# engine (npm/wasm). The Foundry module's lean wasm is
# `scripts/build-wasm.sh foundry` (run by build-foundry.sh and test-js.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-node.sh
bash scripts/build-wasm.sh
