#!/usr/bin/env bash
# Runs every test: formatting, lints, the Rust suite, then the JavaScript
# suites (napi, wasm in Node, wasm in Chromium, the Foundry module).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo test"
cargo test --workspace
echo "== JavaScript: the npm package (napi, wasm in Node, wasm in Chromium)"
bash scripts/test-js.sh
