#!/usr/bin/env bash
# The release's own checks (tests/release/): every file says the workspace's
# version (scripts/version.mjs); the release workflow passes the linter
# (scripts/lint-workflows.sh) and calls what the repository has; the
# module.json a release publishes (scripts/release-module.sh) is valid with
# dist/furtive.zip; scripts/serve-module.sh serves a manifest whose download
# resolves; the npm platform packages follow the napi-rs CLI's conventions
# and the loader (npm/native.js) finds them. Needs dist/furtive.zip, the
# napi addon and the npm package's wasm (scripts/test.sh builds them first;
# this script builds what is missing).
set -euo pipefail
cd "$(dirname "$0")/.."

[ -f dist/furtive.zip ] || bash scripts/build-foundry.sh
ls npm/furtive.*.node >/dev/null 2>&1 && [ -f npm/wasm/furtive_wasm_bg.wasm ] || bash scripts/build.sh

echo "== one version: Cargo workspace, locks, npm/package.json, module.json, CHANGELOG.md"
node scripts/version.mjs check
echo "== the release workflow, linted (check-jsonschema, zizmor)"
bash scripts/lint-workflows.sh
echo "== release tests (tests/release/)"
node --test --test-concurrency=1 tests/release/
