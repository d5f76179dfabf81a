// What the engine tells its caller so the caller keeps no rule knowledge:
// a Session's effects say which hiders began or ended a stealth attempt
// (`attempts`) and which stored views changed (`views`). The same answers
// on every backend.
//
//   node --test tests/js/engine-tells.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { loadNodeImpl } from "./impl.mjs";

const backends = { napi: await loadNodeImpl("napi"), wasm: await loadNodeImpl("wasm-node") };

const opposed = {
  ruleset: "opposed",
  creatures: [
    { id: "rogue", side: "party" },
    { id: "guard", side: "watch" },
    { id: "archer", side: "watch" },
  ],
};

test("O1 O12 P9: effects.attempts says which hiders began or ended a stealth attempt, on every backend", () => {
  const seen = {};
  for (const [backend, api] of Object.entries(backends)) {
    const session = api.Session.create(opposed);
    const entered = session.apply({ type: "enterStealth", hider: "rogue", roll: 15, view: [{ observer: "guard", clearView: false, distance: 30 }] });
    assert.deepEqual(entered.attempts, [{ hider: "rogue", hiding: true }], backend);
    const again = session.apply({ type: "enterStealth", hider: "rogue", roll: 12 });
    assert.deepEqual(again.attempts, [], `${backend}: a fresh roll is the same attempt (O7)`);
    const sprint = session.apply({ type: "sprint", token: "rogue" });
    assert.deepEqual(sprint.attempts, [{ hider: "rogue", hiding: false }], `${backend}: sprinting ends it (O12)`);
    const percentile = api.Session.create({ ruleset: "percentile", creatures: [{ id: "spy", stealthSkill: 100, side: "party" }, { id: "guard", side: "watch" }] });
    percentile.apply({ type: "enterStealth", hider: "spy", roll: 90 });
    percentile.apply({ type: "attack", attacker: "spy", targets: ["guard"] });
    const turnEnd = percentile.apply({ type: "turnEnd", combatant: "spy" });
    assert.deepEqual(turnEnd.attempts, [{ hider: "spy", hiding: false }], `${backend}: the attack revealed it at its turn end (P9)`);
    seen[backend] = [entered.attempts, sprint.attempts, turnEnd.attempts];
    session.free();
    percentile.free();
  }
  assert.deepEqual(seen.wasm, seen.napi);
});

test("B5 O4: effects.views lists the stored views that changed, appeared or went away, on every backend", () => {
  const seen = {};
  for (const [backend, api] of Object.entries(backends)) {
    const session = api.Session.create(opposed);
    const entered = session.apply({ type: "enterStealth", hider: "rogue", roll: 15, view: [{ observer: "guard", clearView: false, distance: 30 }] });
    assert.deepEqual(
      entered.views,
      [
        { hider: "rogue", observer: "archer", clearView: false, distance: null, removed: false },
        { hider: "rogue", observer: "guard", clearView: false, distance: 30, removed: false },
      ],
      backend,
    );
    const moved = session.apply({ type: "viewChanged", hider: "rogue", view: [{ observer: "guard", clearView: true, distance: 20 }, { observer: "archer", clearView: false }] });
    assert.deepEqual(moved.views, [{ hider: "rogue", observer: "guard", clearView: true, distance: 20, removed: false }], backend);
    const left = session.apply({ type: "tokenRemoved", token: "guard" });
    assert.deepEqual(left.views, [{ hider: "rogue", observer: "guard", clearView: false, distance: null, removed: true }], backend);
    seen[backend] = [entered.views, moved.views, left.views];
    session.free();
  }
  assert.deepEqual(seen.wasm, seen.napi);
});
