// What the engine tells its caller so the caller keeps no rule knowledge:
// a Session's effects say which hiders began or ended a stealth attempt
// (`attempts`) and which stored views changed (`views`); the GM queries
// `standing` and `pairs` say where a hider and each pair stand, and why.
// The same answers on every backend.
//
//   node --test tests/js/engine-tells.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { loadNodeImpl } from "./impl.mjs";

// napi, the npm package's wasm, and the Foundry module's copy of the wasm
// (scripts/build-foundry.sh): every build that ships.
const backends = { napi: await loadNodeImpl("napi"), wasm: await loadNodeImpl("wasm-node"), foundry: await loadNodeImpl("foundry-wasm") };

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
  assert.deepEqual(seen.foundry, seen.napi);
});

test("B5 O4: effects.views lists, per hider, the stored views that changed or appeared and the pairs that went away, on every backend", () => {
  const seen = {};
  for (const [backend, api] of Object.entries(backends)) {
    const session = api.Session.create(opposed);
    const entered = session.apply({ type: "enterStealth", hider: "rogue", roll: 15, view: [{ observer: "guard", clearView: false, distance: 30 }] });
    assert.deepEqual(
      entered.views,
      [
        {
          hider: "rogue",
          view: [
            { observer: "archer", clearView: false, distance: null },
            { observer: "guard", clearView: false, distance: 30 },
          ],
          removed: [],
        },
      ],
      backend,
    );
    const moved = session.apply({ type: "viewChanged", hider: "rogue", view: [{ observer: "guard", clearView: true, distance: 20 }, { observer: "archer", clearView: false }] });
    assert.deepEqual(moved.views, [{ hider: "rogue", view: [{ observer: "guard", clearView: true, distance: 20 }], removed: [] }], backend);
    const left = session.apply({ type: "tokenRemoved", token: "guard" });
    assert.deepEqual(left.views, [{ hider: "rogue", view: [], removed: ["guard"] }], backend);
    const unchanged = session.apply({ type: "viewChanged", hider: "rogue", view: [{ observer: "archer", clearView: false }] });
    assert.deepEqual(unchanged.views, [], `${backend}: no hider whose views stayed`);
    seen[backend] = [entered.views, moved.views, left.views];
    session.free();
  }
  assert.deepEqual(seen.wasm, seen.napi);
  assert.deepEqual(seen.foundry, seen.napi);
});

test("O4: one Perception check request names every observer that rolls against the hider, each answered on its own, on every backend", () => {
  const seen = {};
  for (const [backend, api] of Object.entries(backends)) {
    const session = api.Session.create(opposed);
    session.apply({ type: "enterStealth", hider: "rogue", roll: 15, view: [{ observer: "guard", clearView: false }, { observer: "archer", clearView: false }] });
    const both = session.apply({ type: "viewChanged", hider: "rogue", view: [{ observer: "guard", clearView: true, distance: 20 }, { observer: "archer", clearView: true, distance: 10 }] });
    assert.deepEqual(both.requests, [{ kind: "perceptionCheck", hider: "rogue", observers: ["guard", "archer"], clause: "O4" }], backend);
    // The Foundry module's wasm has no seeded roller: the module rolls the checks itself.
    const answers = backend === "foundry" ? [
      { type: "perceptionRolled", hider: "rogue", observer: "guard", total: 20 },
      { type: "perceptionRolled", hider: "rogue", observer: "archer", total: 5 },
    ] : session.rollRequests(both.requests, 3);
    // The seeded roller answers each observer with its own roll, in order.
    if (backend !== "foundry") assert.deepEqual(answers.map((a) => [a.type, a.hider, a.observer]), [["perceptionRolled", "rogue", "guard"], ["perceptionRolled", "rogue", "archer"]], backend);
    const answered = session.applyAll(answers);
    assert.deepEqual(answered.requests, [], `${backend}: every check answered`);
    const pairs = session.snapshot().hiders.rogue.pairs;
    assert.deepEqual([pairs.guard.checkPending, pairs.archer.checkPending], [false, false], backend);
    seen[backend] = both.requests;
    session.free();
  }
  assert.deepEqual(seen.wasm, seen.napi);
  assert.deepEqual(seen.foundry, seen.napi);
});

const percentile = {
  ruleset: "percentile",
  creatures: [
    { id: "spy", name: "Spy", stealthSkill: 50, side: "party" },
    { id: "guard", name: "Guard", acuities: { visual: 30, auditory: 20, olfactory: 10 }, side: "watch" },
    { id: "captain", name: "Captain", acuities: { visual: 200 }, side: "watch" },
  ],
};

test("P1 P2 P4 O1 O6: Session.standing gives a hider's roll in force and its parts, on every backend", () => {
  const seen = {};
  for (const [backend, api] of Object.entries(backends)) {
    const session = api.Session.create(percentile);
    session.apply({ type: "enterStealth", hider: "spy", roll: 37, modifiers: { situation: ["dark"] } });
    session.apply({ type: "modifiersChanged", hider: "spy", modifiers: { situation: ["cluttered"] } });
    const standing = session.standing({ hider: "spy" });
    assert.deepEqual(
      standing,
      {
        hider: "spy",
        phase: "hiding",
        movedThisTurn: false,
        percentile: {
          score: 137,
          d100: 37,
          stealthSkill: 50,
          tier: 37,
          modifierTotal: 50,
          modifiers: { situation: ["dark"], free: [] },
          alreadyPerceivedAdded: false,
          pendingModifiers: { situation: ["cluttered"], free: [] },
        },
        opposed: null,
      },
      backend,
    );
    assert.deepEqual(session.standing({ hider: "ghost" }).phase, null, `${backend}: no attempt (B1)`);
    const held = api.Session.create(opposed);
    held.apply({ type: "enterStealth", hider: "rogue", roll: 18, precautions: ["smell"] });
    held.apply({ type: "attack", attacker: "rogue", targets: ["guard"], noisy: true });
    const opposedStanding = held.standing({ hider: "rogue" });
    assert.equal(opposedStanding.percentile, null, backend);
    assert.equal(opposedStanding.opposed.heldTotal, 18, backend);
    assert.equal(opposedStanding.opposed.globalPenalty, 5, `${backend}: O8`);
    assert.deepEqual(opposedStanding.opposed.precautions, ["smell"], backend);
    assert.throws(() => session.standing({ hider: "spy", extra: 1 }), { code: "invalid_input" }, `${backend}: an unknown field`);
    seen[backend] = [standing, opposedStanding];
    session.free();
    held.free();
  }
  assert.deepEqual(seen.wasm, seen.napi);
  assert.deepEqual(seen.foundry, seen.napi);
});

test("B3 P3 P6: Session.pairs gives each pair's state and the decision behind it in English and French, on every backend", () => {
  const seen = {};
  for (const [backend, api] of Object.entries(backends)) {
    const session = api.Session.create(percentile);
    session.apply({ type: "enterStealth", hider: "spy", roll: 37 });
    session.apply({ type: "attack", attacker: "spy", targets: ["guard"] });
    const pairs = session.pairs({});
    assert.deepEqual(
      pairs.map((p) => [p.hider, p.observer, p.state, p.defenseless, p.clause]),
      [
        ["spy", "captain", "perceived", false, "P3"],
        ["spy", "guard", "unperceived", true, "P3"],
      ],
      backend,
    );
    const guard = pairs[1];
    assert.equal(guard.en, "score 87 > acuity sum 60: Guard does not perceive Spy (P3).", backend);
    assert.equal(guard.fr, "score 87 > somme des acuités 60 : Guard ne perçoit pas Spy (P3).", backend);
    assert.equal("message" in guard, false, `${backend}: the message is given as its texts`);
    assert.deepEqual(session.pairs({ hider: "spy", observer: "guard" }), [guard], `${backend}: one pair`);
    const stranger = session.pairs({ observer: "stranger" });
    assert.deepEqual(stranger.map((p) => [p.state, p.clause]), [["unperceived", "B1"]], `${backend}: an unknown observer (B1)`);
    assert.deepEqual(session.pairs({ hider: "guard" }), [], `${backend}: no attempt, no pairs`);
    assert.throws(() => session.pairs({ hider: "" }), { code: "invalid_input" }, backend);
    seen[backend] = pairs;
    session.free();
  }
  assert.deepEqual(seen.wasm, seen.napi);
  assert.deepEqual(seen.foundry, seen.napi);
});
