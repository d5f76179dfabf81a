// situationModifiers(): the nine P2 modifiers, the same from both backends
// (the Foundry module's Hide dialog shows them from the engine).
//
//   node --test tests/js/modifiers.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { loadNodeImpl } from "./impl.mjs";

test("P2: both backends list the nine situation modifiers with the rule's values", async () => {
  const napi = await loadNodeImpl("napi");
  const wasm = await loadNodeImpl("wasm-node");
  const expected = [
    ["sprint", -50], ["already_perceived", -100], ["dark", 50], ["no_cover", -50], ["cluttered", 50],
    ["very_quiet", -50], ["very_noisy", 50], ["strong_smells", 50], ["deserted", -50],
  ].map(([id, value]) => ({ id, value }));
  assert.deepEqual(napi.situationModifiers(), expected);
  assert.deepEqual(wasm.situationModifiers(), expected);
});
