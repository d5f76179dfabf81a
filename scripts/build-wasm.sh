#!/usr/bin/env bash
# Builds the wasm engine into npm/wasm/ (wasm-bindgen --target web), shrinks
# it with wasm-opt, and reports its size against the budget (150 KB raw,
# 60 KB gzipped). Installs what it needs: the wasm32 Rust target,
# wasm-bindgen-cli at the exact version furtive-wasm pins, and Debian's
# binaryen (wasm-opt) when missing.
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
if ! command -v wasm-opt >/dev/null; then
  echo "build-wasm: installing binaryen (wasm-opt)"
  apt-get update -qq && apt-get install -y -qq binaryen >/dev/null
fi

cargo build -p furtive-wasm --target wasm32-unknown-unknown --profile wasm-release
rm -rf npm/wasm
# --experimental-reset-state-function: exports __wbg_reset_state, which
# npm/browser.js calls to start a fresh instance after a panic.
wasm-bindgen --target web --out-dir npm/wasm --out-name furtive_wasm \
  --experimental-reset-state-function \
  --remove-name-section --remove-producers-section \
  target/wasm32-unknown-unknown/wasm-release/furtive_wasm.wasm

wasm=npm/wasm/furtive_wasm_bg.wasm
size() { echo "$(wc -c <"$1") bytes raw, $(gzip -9 -c "$1" | wc -c) bytes gzipped"; }
echo "build-wasm: wasm-bindgen output: $(size "$wasm")"
# -Oz shrinks the code; -ocimfs 0 stops inlining functions that have one
# caller, which made the gzipped file 20% larger. The features are those
# rustc enables by default for wasm32-unknown-unknown.
wasm-opt -Oz -ocimfs 0 \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-multivalue --enable-reference-types \
  "$wasm" -o "$wasm.opt"
mv "$wasm.opt" "$wasm"
echo "build-wasm: $wasm after wasm-opt: $(size "$wasm") (budget 153600 raw, 61440 gzipped)"
