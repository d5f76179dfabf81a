#!/usr/bin/env bash
# Builds everything the npm package ships: the napi addon and the wasm engine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-node.sh
bash scripts/build-wasm.sh
