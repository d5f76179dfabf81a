#!/usr/bin/env bash
# The release's own checks (tests/release/): every file says the workspace's
# version (scripts/version.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== one version: Cargo workspace, locks, npm/package.json, module.json, CHANGELOG.md"
node scripts/version.mjs check
node --test tests/release/version.test.mjs
