#!/usr/bin/env bash
# Builds everything the npm package ships (the napi addon and the wasm
# engine, npm/wasm) and the Foundry module's lean wasm (target/wasm-foundry,
# size budget in wasm-budget.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-node.sh
bash scripts/build-wasm.sh all
