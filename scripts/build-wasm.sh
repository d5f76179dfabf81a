#!/usr/bin/env bash
# Builds the wasm engine into npm/wasm/ (wasm-bindgen --target web) and
# reports its size. Installs what it needs: the wasm32 Rust target and
# wasm-bindgen-cli at the exact version furtive-wasm pins.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target add wasm32-unknown-unknown >/dev/null

version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' crates/furtive-wasm/Cargo.toml)
if [ -z "$version" ]; then
  echo "build-wasm: cannot read the pinned wasm-bindgen version" >&2
  exit 1
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
  echo "build-wasm: installing wasm-bindgen-cli $version"
  cargo install wasm-bindgen-cli --version "$version"
fi

cargo build -p furtive-wasm --target wasm32-unknown-unknown --profile wasm-release
rm -rf npm/wasm
wasm-bindgen --target web --out-dir npm/wasm --out-name furtive_wasm \
  target/wasm32-unknown-unknown/wasm-release/furtive_wasm.wasm

wasm=npm/wasm/furtive_wasm_bg.wasm
raw=$(wc -c <"$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
echo "build-wasm: $wasm is $raw bytes raw, $gz bytes gzipped (budget 153600 raw, 61440 gzipped)"
