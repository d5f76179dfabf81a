// npm/types.d.ts (the types of every value crossing the boundary, which
// npm/index.d.ts re-exports and the Foundry module's scripts/types.mjs
// imports) must be what tests/js/generate-types.mjs makes of
// npm/furtive.schema.json; `cargo test -p furtive-core --features schema
// --test types` checks
// that schema against the Rust types. Together: CI fails when the committed
// types drift from the Rust; `bash scripts/generate-types.sh` regenerates them. In the
// hand-written part of index.d.ts, the JavaScript layer's error codes are
// checked here against errors.js (the classes and functions against the
// export list by crates/furtive-core/tests/exports.rs).
//
//   node --test tests/js/generated-types.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { generate } from "./generate-types.mjs";

test("npm/types.d.ts is generated from npm/furtive.schema.json", async () => {
  const committed = readFileSync(new URL("../../npm/types.d.ts", import.meta.url), "utf8");
  assert.ok(committed === (await generate()), "npm/types.d.ts differs from npm/furtive.schema.json: run `bash scripts/generate-types.sh`");
});

test("npm/index.d.ts declares no type of its own that the schema has", () => {
  const schema = JSON.parse(readFileSync(new URL("../../npm/furtive.schema.json", import.meta.url), "utf8"));
  const index = readFileSync(new URL("../../npm/index.d.ts", import.meta.url), "utf8");
  const declared = [...index.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]);
  const twice = declared.filter((name) => name in schema.definitions);
  assert.deepEqual(twice, [], "hand-written copies of generated types in npm/index.d.ts");
});

test("npm/index.d.ts's BindingErrorCode lists exactly the JavaScript layer's codes (errors.js), in order", async () => {
  const { BINDING_ERROR_CODES } = await import("../../npm/errors.js");
  const index = readFileSync(new URL("../../npm/index.d.ts", import.meta.url), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  const start = index.indexOf("export type BindingErrorCode =");
  assert.ok(start >= 0, "index.d.ts declares BindingErrorCode");
  const union = index.slice(start, index.indexOf(";", start));
  assert.deepEqual([...union.matchAll(/"(\w+)"/g)].map((m) => m[1]), [...BINDING_ERROR_CODES]);
});
