#!/usr/bin/env bash
# Builds the Foundry module: its wasm engine (scripts/build-wasm.sh
# foundry: no scene reader, no seeded roller; fails above the size budget
# in wasm-budget.json) with the npm package's wasm entry point, copied into
# foundry-module/engine/, then dist/furtive.zip with exactly what Foundry
# needs (module.json, scripts, lang, styles, templates, icons, engine) and
# dist/module.json (the manifest a release publishes beside the zip).
# Installs `zip` with apt-get when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build-wasm.sh foundry

# The module loads the engine through the npm package's wasm entry point.
rm -rf foundry-module/engine
mkdir -p foundry-module/engine/wasm
cp npm/browser.js npm/arguments.js npm/errors.js npm/classes.js npm/signatures.js npm/explain.js npm/explanations.js foundry-module/engine/
cp target/wasm-foundry/furtive_wasm.js target/wasm-foundry/furtive_wasm_bg.wasm foundry-module/engine/wasm/

if ! command -v zip >/dev/null 2>&1; then
  echo "build-foundry: installing zip"
  apt-get update -qq && apt-get install -y -qq zip >/dev/null
fi

mkdir -p dist
rm -rf dist/furtive.zip dist/.stage
mkdir -p dist/.stage
cp -R foundry-module/module.json foundry-module/scripts foundry-module/lang foundry-module/styles \
  foundry-module/templates foundry-module/icons foundry-module/engine dist/.stage/
(
  cd dist/.stage
  # Fixed timestamps and order, so the same sources give the same zip.
  find . -type f -exec touch -d '2000-01-01 00:00:00 UTC' {} +
  find . -type f | sed 's|^\./||' | LC_ALL=C sort | zip -q -X -D ../furtive.zip -@
)
rm -rf dist/.stage
cp foundry-module/module.json dist/module.json

files=$(unzip -Z1 dist/furtive.zip | wc -l)
size=$(wc -c <dist/furtive.zip)
echo "build-foundry: dist/furtive.zip has $files files, $size bytes"
