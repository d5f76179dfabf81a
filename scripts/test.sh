#!/usr/bin/env bash
# Runs every test: formatting, lints, the Rust suite, then the JavaScript
# suites (napi, wasm in Node, wasm in Chromium, the Foundry module, the
# demo, the playground page).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo clippy: furtive-core without its features (the Foundry module's wasm)"
cargo clippy -p furtive-core --no-default-features -- -D warnings
echo "== cargo clippy: furtive-core with its feature schema (the JSON Schemas of the boundary types)"
cargo clippy -p furtive-core --all-targets --features schema -- -D warnings
echo "== cargo doc: every docstring link resolves and names a public item"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
echo "== cargo test"
cargo test --workspace
echo "== npm/furtive.schema.json against the Rust types (npm/types.d.ts is checked against it in test-js.sh),"
echo "   and the session tests with furtive-core's own features (Arc ids: a Session moves between threads;"
echo "   the workspace run above has the napi addon's rc-text)"
cargo test -p furtive-core --features schema --test types --test session
echo "== fuzz targets: a short smoke run of each over its corpus (scripts/fuzz-smoke.sh)"
bash scripts/fuzz-smoke.sh
echo "== bench/wasm-floor (scripts/wasm-floor.sh) still builds against furtive-core"
rustup target add wasm32-unknown-unknown >/dev/null
cargo fmt --manifest-path bench/wasm-floor/Cargo.toml -- --check
CARGO_TARGET_DIR=target/wasm-floor cargo clippy --manifest-path bench/wasm-floor/Cargo.toml \
  --target wasm32-unknown-unknown -- -D warnings
echo "== JavaScript: the npm package (napi, wasm in Node, wasm in Chromium)"
bash scripts/test-js.sh
echo "== Foundry module: fake Foundry (Node), headless Chromium, tsc --checkJs, dist/furtive.zip"
bash scripts/test-foundry.sh
echo "== Release: one version (scripts/test-release.sh)"
bash scripts/test-release.sh
echo "== The demo on Nort Gate (both rulesets, and the night run)"
(cd demo && npm install --no-audit --no-fund --silent)
node --test tests/demo/
echo "== The playground page (headless Chromium; scripts/test-playground.sh)"
bash scripts/test-playground.sh
