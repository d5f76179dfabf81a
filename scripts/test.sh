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
echo "== cargo clippy: furtive-core and furtive-json without their features (the Foundry module's wasm)"
cargo clippy -p furtive-core -p furtive-json --no-default-features -- -D warnings
echo "== cargo clippy: furtive-core with its feature schema (the JSON Schemas of the boundary types)"
cargo clippy -p furtive-core --all-targets --features schema -- -D warnings
echo "== cargo doc: every docstring link resolves and names a public item"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
echo "== cargo test"
cargo test --workspace
echo "== npm/furtive.schema.json against the Rust types (npm/types.d.ts is checked against it in test-js.sh)"
cargo test -p furtive-core --features schema --test types
echo "== fuzz targets: a short smoke run of each over its corpus (scripts/fuzz-smoke.sh)"
bash scripts/fuzz-smoke.sh
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
