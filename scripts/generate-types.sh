#!/usr/bin/env bash
# Regenerates the TypeScript types of the npm package from the Rust types:
# npm/furtive.schema.json (furtive_core::schema::boundary_schema, through
# crates/furtive-core/tests/types.rs), then npm/types.d.ts from it
# (tests/js/generate-types.mjs, json-schema-to-typescript). Run it after
# changing a type that crosses the JavaScript boundary; CI (cargo test and
# tests/js/generated-types.test.mjs) fails until both are committed.
set -euo pipefail
cd "$(dirname "$0")/.."

FURTIVE_UPDATE_GOLDEN=1 cargo test -q -p furtive-core --features schema --test types
if [ ! -d tests/js/node_modules/json-schema-to-typescript ]; then
  (cd tests/js && npm ci --no-audit --no-fund)
fi
node tests/js/generate-types.mjs
