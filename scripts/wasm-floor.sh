#!/usr/bin/env bash
# Prints the wasm size floor of furtive-core (bench/wasm-floor: every engine
# entry point, no parsing, no serialization) next to the real build
# (the Foundry module's size-built wasm, which has the budget, and the npm
# package's speed-built one, from scripts/build-wasm.sh all), raw and
# gzipped. A measurement for the size budget, not a test; CI does not run it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh all >/dev/null
export CARGO_TARGET_DIR="$PWD/target/wasm-floor"
cargo build --manifest-path bench/wasm-floor/Cargo.toml --release --target wasm32-unknown-unknown
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
wasm-bindgen --target web --out-dir "$out" --out-name floor \
  --remove-name-section --remove-producers-section \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/furtive_wasm_floor.wasm"
size() { echo "$(wc -c <"$1") bytes raw, $(gzip -9 -c "$1" | wc -c) bytes gzipped"; }
echo "wasm-floor: engine alone, no parsing or serialization: $(size "$out/floor_bg.wasm")"
echo "wasm-floor: the Foundry module's build (size, budget in wasm-budget.json): $(size target/wasm-foundry/furtive_wasm_bg.wasm)"
echo "wasm-floor: the npm package's build (speed, npm/wasm):                 $(size npm/wasm/furtive_wasm_bg.wasm)"
