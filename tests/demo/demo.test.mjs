// The demo (README's first command) on Nort Gate, in both rulesets and by night, with a
// fixed seed. The expectations are written from the rules and from the
// scene's walls, not copied from the program's output: the dice are inputs
// (read from the run's requests), everything decided from them is checked
// here against the clause that decides it.
//
// Run: node --test tests/demo/ (after `bash scripts/demo.sh` or scripts/build.sh
// and `npm install` in demo/).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

// The npm package as the demo installs it (demo/node_modules/furtive -> ../npm).
import * as furtive from "../../demo/node_modules/furtive/node.js";
import { darkvision } from "../../demo/actors.mjs";
import { loadScenario } from "../../demo/scenario.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Runs the demo and returns its JSON runs. */
function demo(...args) {
  const result = spawnSync(process.execPath, ["demo/run.mjs", "--json", ...args], { cwd: root, encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

// Clear view on the ground floor of Nort Gate (walls with Wall Height 0-9),
// token centre to token centre, worked out from the wall list of
// shared/fixtures/scene-ocd-nort-gate.json. Each blocked line names the
// first wall it crosses; the gate's west door (kv3XzwiLDsuIK61t, ds 1) is open.
const WAYPOINTS = ["650,1550", "750,1750", "780,1900", "650,2150", "1050,1850", "1150,1650", "1100,1250"];
const CLEAR_VIEW = {
  "gate-guard": {
    "650,1550": false, // west wall QHbvRCG6S1EpLxsM (950,1500)-(950,1750)
    "750,1750": false, // west wall GNgRFN0AxKjQ3gjs (950,1787)-(950,1850)
    "780,1900": true, // through the open gate door
    "650,2150": false, // west wall 6R1H7yX5aQzpNFQJ (950,2037)-(950,2300)
    "1050,1850": true, // inside the hall
    "1150,1650": true,
    "1100,1250": false, // north building wall MOpg2oazqESom1oP
  },
  scout: Object.fromEntries(WAYPOINTS.map((w) => [w, false])), // south building walls (t9xTAhpLLsTRvRov, YO4Mq5sbCHjD8Y3p, ...)
  wolf: Object.fromEntries(WAYPOINTS.map((w) => [w, false])), // north building walls (s7CRahXmSuEwzwVg, hRpqWpDwMVoRHSdt, ...)
  spider: {
    "650,1550": false, // QHbvRCG6S1EpLxsM
    "750,1750": false, // QHbvRCG6S1EpLxsM
    "780,1900": false, // GNgRFN0AxKjQ3gjs
    "650,2150": false, // GNgRFN0AxKjQ3gjs
    "1050,1850": true,
    "1150,1650": true,
    "1100,1250": true,
  },
};
// Giant spider (2x2 at 1000,1500, centre 1100,1600) to the spy at 1150,1650
// (centre 1200,1700): 141 px = 7.1 ft with 100 px = 5 ft: inside blindsight 10 ft.
const BLINDSIGHT_WAYPOINT = "1150,1650";

const key = (at) => `${at.x},${at.y}`;

/**
 * The Perception checks a step asked for, one per observer, in order: the
 * engine's request names every observer that rolls against the hider, and
 * the roller answers each with its own `perceptionRolled`.
 */
function checksOf(step) {
  return step.requests
    .filter((r) => r.request.kind === "perceptionCheck")
    .flatMap(({ request, answers }) => {
      assert.equal(answers.length, request.observers.length, "one answer per observer");
      return request.observers.map((observer, i) => {
        assert.deepEqual([answers[i].type, answers[i].hider, answers[i].observer], ["perceptionRolled", request.hider, observer], "each observer answered in order");
        return { observer, clause: request.clause, total: answers[i].total };
      });
    });
}

/** The new stealth roll a step asked for (O1, P1, P4), with the roller's answer. */
function stealthRollOf(step) {
  const found = step.requests.find((r) => r.request.kind === "stealthRoll");
  if (!found) return undefined;
  assert.equal(found.answers.length, 1, "one stealth roll answers one request");
  return { request: found.request, roll: found.answers[0].roll };
}

function checkClearView(run) {
  for (const step of run.steps) {
    for (const move of step.moves) {
      for (const view of move.view) {
        assert.equal(view.clearView, CLEAR_VIEW[view.observer][key(move.at)], `${run.ruleset}: ${view.observer} at ${key(move.at)}`);
      }
    }
  }
}

test("opposed: Nort Gate walk follows O1, O2, O4, O5, O9 and O13", () => {
  const [run] = demo("--scenario", "demo/scenarios/nort-gate-opposed.json", "--seed", "23");
  assert.equal(run.ruleset, "opposed");
  checkClearView(run);

  // O1: one Stealth check, 1d20 + Spy's Stealth (+4: Dex 15, proficiency 2), held.
  const [first] = run.steps;
  const stealth = stealthRollOf(first).roll;
  assert.ok(stealth >= 5 && stealth <= 24, `1d20 + 4 = ${stealth}`);
  // O2: nobody has clear view at entry, so nobody perceives and nothing is rolled.
  assert.deepEqual(Object.values(first.afterTurnEnd), [false, false, false, false]);
  assert.equal(checksOf(first).length, 0);

  const perceived = { "gate-guard": false, scout: false, wolf: false, spider: false };
  const stored = {};
  for (const step of run.steps.slice(1, 3)) {
    const checks = checksOf(step);
    let c = 0;
    step.moves.forEach((move) => {
      for (const view of move.view) {
        const o = view.observer;
        if (perceived[o]) continue;
        // O13: the spider's blindsight (10 ft, targeting) needs no roll.
        if (o === "spider" && key(move.at) === BLINDSIGHT_WAYPOINT) {
          perceived[o] = true;
          continue;
        }
        // O4: an unperceiving observer that comes into clear view checks once;
        // the result is stored and never rolled again in this attempt.
        if (view.clearView && stored[o] === undefined) {
          const check = checks[c++];
          assert.equal(check.observer, o, `check order at ${key(move.at)}`);
          assert.equal(check.clause, "O4");
          stored[o] = check.total;
          perceived[o] = check.total >= stealth; // a tie is perceived
        }
      }
      assert.deepEqual(move.perceivedBy, perceived, `after the move to ${key(move.at)}`);
    });
    assert.equal(c, checks.length, "no other Perception check");
    // O5: at the end of the turn, an exposed pair whose view still holds is perceived.
    const last = step.moves[step.moves.length - 1];
    for (const view of last.view) {
      if (view.clearView && stored[view.observer] !== undefined) perceived[view.observer] = true;
    }
    assert.deepEqual(step.afterTurnEnd, perceived, `end of turn ${step.turn}`);
  }
  // The spider perceives the spy on turn 3 whatever the dice: blindsight (O13)
  // or its check; the scout never has clear view and never perceives.
  assert.equal(perceived.spider, true);
  assert.equal(perceived.scout, false);

  // O9: the silent attack on the wolf, which does not perceive the spy, makes
  // the wolf check at once against the held total (a silent attack costs nothing, O8).
  const finale = run.steps[3];
  assert.equal(finale.requests.length, 1, "one request: the wolf's check");
  const [o9] = checksOf(finale);
  assert.equal(o9.clause, "O9");
  assert.equal(o9.observer, "wolf");
  assert.equal(finale.afterTurnEnd.wolf, o9.total >= stealth);
  assert.equal(finale.afterTurnEnd.scout, false);
});

test("percentile: Nort Gate walk follows P1, P3, P4, P6 and P9", () => {
  const [run] = demo("--scenario", "demo/scenarios/nort-gate-percentile.json", "--seed", "8");
  assert.equal(run.ruleset, "percentile");
  checkClearView(run);
  // Roster acuity sums (scenario file): guard 40+30+20, scout 45+35+20,
  // wolf 20+40+50, giant spider 30+50+40.
  const sums = { "gate-guard": 90, scout: 100, wolf: 110, spider: 120 };
  const expectPerception = (score) => Object.fromEntries(Object.entries(sums).map(([o, sum]) => [o, score <= sum])); // P3

  // P1: Furtivité 75 (50..99: + d100), cluttered +50 (P2).
  const [first] = run.steps;
  const d1 = stealthRollOf(first).roll;
  const score1 = 75 + d1 + 50;
  assert.deepEqual(first.afterTurnEnd, expectPerception(score1));
  // P3 ignores clear view: turn 2 changes nothing.
  assert.deepEqual(run.steps[1].afterTurnEnd, expectPerception(score1));

  // P4: very quiet (-50) instead of cluttered makes the score stale and asks
  // for a new roll; P9: the roll carries -100 if a non-ally perceives the spy.
  const third = run.steps[2];
  const reroll = stealthRollOf(third);
  assert.equal(reroll.request.clause, "P4");
  const anyPerceived = Object.values(expectPerception(score1)).some(Boolean);
  const score2 = 75 + reroll.roll - 50 - (anyPerceived ? 100 : 0);
  assert.deepEqual(third.afterTurnEnd, expectPerception(score2));

  // P6: the attack on the wolf is a surprise iff the wolf does not perceive
  // the spy; then the wolf may not defend, and another creature may defend it
  // iff it perceives the spy.
  const finale = run.steps[3];
  const before = expectPerception(score2);
  const surprised = !before.wolf;
  assert.equal(finale.targetMayDefend.allowed, !surprised);
  for (const d of finale.defense) assert.equal(d.allowed, !surprised || before[d.defender], d.defender);
  // P9 (Decided): any attack from hiding, surprise or not, reveals the spy
  // to everyone at the end of its turn.
  const expectedAfter = { "gate-guard": true, scout: true, wolf: true, spider: true };
  assert.deepEqual(finale.afterTurnEnd, expectedAfter);
  // With seed 8 the dice make this a surprise (the story the scenario tells).
  assert.equal(surprised, true);
});

test("--seed replays a run exactly, and another seed rolls other dice", () => {
  const a = demo("--seed", "5");
  const b = demo("--seed", "5");
  assert.deepEqual(a, b);
  assert.equal(a.length, 3, "the three shipped scenarios run by default");
  assert.deepEqual(a.map((run) => run.name.split(",")[0]), ["Nort Gate", "Nort Gate", "Nort Gate by night"]);
  const c = demo("--seed", "6");
  const rolls = (runs) => runs.flatMap((r) => r.steps.flatMap((s) => s.requests.flatMap((q) => q.answers.map((a) => a.roll ?? a.total))));
  assert.notDeepEqual(rolls(a), rolls(c));
});

test("a bad scenario or seed is refused with a message naming the field", () => {
  const result = spawnSync(process.execPath, ["demo/run.mjs", "--seed", "-1"], { cwd: root, encoding: "utf8" });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /--seed/);
  // A Foundry scene export given where a scenario belongs says so.
  const scene = fileURLToPath(new URL("../../../shared/fixtures/scene-ocd-nort-gate.json", import.meta.url));
  const wrongFile = spawnSync(process.execPath, ["demo/run.mjs", "--scenario", scene], { cwd: root, encoding: "utf8" });
  assert.equal(wrongFile.status, 2);
  assert.match(wrongFile.stderr, /looks like a Foundry scene export, not a scenario/);
});

// ---- The night run (demo/scenarios/nort-gate-night.json) ----
//
// Nort Gate at darkness 1 with global light off: no light reaches any place
// until the scenario's torch (dim 40 ft = 800 px, at 1000,1900, inside the
// open gate) is lit on turn 3. The scenario adds one wall, lowCourtyardWall
// (780,1650)-(780,2150), Wall Height 0-5 ft. Grid 100 px = 5 ft.
// Gate guard: SRD Guard (darkvision 0) at 1450,1850 (centre 1500,1900, 0 ft).
// Goblin lookout: SRD Goblin (darkvision 60 ft) at 1000,1850 (centre
// 1050,1900) at 16 ft, on the first-floor gallery above the gate, whose west
// side (950,1800)-(950,2000) is a wall of sight 0 at 10-19 ft; the gallery
// floor is the Levels floor tile at 10 ft, open outside the keep (the Levels
// hole, x < 950 at the gate).
const NIGHT = "demo/scenarios/nort-gate-night.json";

/** The engine's answer for one line on the night scene (lights lit by `turn`). */
function nightView(scenario, turn, from, to, observerDarkvision) {
  const lights = scenario.lights.filter((l) => l.litAtTurn <= turn).map((l) => l.normalized);
  return furtive.clearView({ ...scenario.scene, lights }, { from: { token: from }, to: { token: to }, darkvision: observerDarkvision });
}

test("night, opposed: dark courtyard, torch and a lookout over a low wall follow B5, O2, O4 and O5", () => {
  const [run] = demo("--scenario", NIGHT, "--seed", "11");
  const scenario = loadScenario(fileURLToPath(new URL(`../../${NIGHT}`, import.meta.url)));
  assert.equal(run.ruleset, "opposed");
  assert.deepEqual(run.lighting, { darkness: 1, globalLight: false });
  // Darkvision comes from the SRD actors' senses: Guard 0, Goblin 60 ft.
  assert.deepEqual(run.observers.map((o) => [o.observer, o.elevation, o.darkvision]), [["gate-guard", 0, 0], ["lookout", 16, 60]]);
  const view = (move, observer) => move.view.find((v) => v.observer === observer).clearView;

  // Turn 1, spy at 600,1400 (centre 650,1450): the gate guard's line meets the
  // keep's west wall QHbvRCG6S1EpLxsM, the lookout's the gallery's north wall
  // fzl9HYI7uYRgEK9s. O2: nobody has clear view at entry, so nobody perceives
  // the spy and nothing is rolled.
  const [first, second, third] = run.steps;
  const stealth = stealthRollOf(first).roll;
  assert.equal(first.moves[0].inDarkness, true);
  assert.deepEqual(first.moves[0].view.map((v) => v.clearView), [false, false]);
  assert.deepEqual(first.afterTurnEnd, { "gate-guard": false, lookout: false });
  assert.equal(checksOf(first).length, 0);

  // Turn 2, spy in front of the open gate at 800,1850 (centre 850,1900): the
  // gate guard's line runs along y = 1900 through the open gate door
  // kv3XzwiLDsuIK61t (950,1850)-(950,1950): a sight line. But no light reaches
  // the spy (darkness 1, no global light, the torch is not lit) and the Guard
  // has no darkvision. B5: "a hider in darkness ... is not in clear view of an
  // observer whose senses do not see in darkness at that distance": no clear
  // view, so no O4 check. The lookout's line from 16 ft to 0 ft meets the
  // gallery floor (10 ft) 6/16 of the way, at x = 1050 - 200 * 3/8 = 975,
  // inside the keep: the floor blocks (B5).
  const atGate = second.moves[1];
  assert.deepEqual(atGate.at, { x: 800, y: 1850 });
  assert.equal(atGate.inDarkness, true);
  assert.equal(view(atGate, "gate-guard"), false);
  assert.equal(view(atGate, "lookout"), false);
  const spyAtGate = { x: 800, y: 1850 };
  const guardToken = { x: 1450, y: 1850 };
  const lookoutToken = { x: 1000, y: 1850, elevation: 16 };
  const darkGate = nightView(scenario, 2, guardToken, spyAtGate, 0);
  assert.equal(darkGate.sightLine, true, "the sight line through the open gate is there");
  assert.equal(darkGate.targetLighting.dark, true);
  assert.equal(nightView(scenario, 2, lookoutToken, spyAtGate, 60).blockingFloors.length, 1);
  assert.equal(second.requests.length, 0, "no Perception check in the dark");
  assert.deepEqual(second.afterTurnEnd, { "gate-guard": false, lookout: false });

  // Turn 3 starts with the torch lit, the spy still at 800,1850, 150 px =
  // 7.5 ft from it along y = 1900 through the open gate: inside its dim
  // radius, the spy is lit. B5: "a change of light is a change of view (O4)":
  // the gate guard, now with clear view (sight line, no concealment), makes
  // one immediate Perception check; a tie is perceived. The lookout's line
  // is still cut by the floor.
  const lit = third.lightsLit;
  assert.deepEqual(lit.lights.map((l) => l.id), ["gateTorch"]);
  assert.deepEqual(lit.at, spyAtGate);
  assert.equal(lit.inDarkness, false);
  assert.equal(view(lit, "gate-guard"), true);
  assert.equal(view(lit, "lookout"), false);
  const checks = checksOf(third);
  assert.equal(checks[0].observer, "gate-guard");
  assert.equal(checks[0].clause, "O4");
  const guardPerceives = checks[0].total >= stealth;
  assert.deepEqual(lit.perceivedBy, { "gate-guard": guardPerceives, lookout: false });

  // The spy vaults the low wall to 500,1850 (centre 550,1900). The gate
  // guard's line stays at 0 ft and crosses lowCourtyardWall (0-5 ft) at
  // x = 780: blocked. The lookout's line (16 ft to 0 ft, 500 px) crosses
  // x = 780 at s = 270/500, at 16 * (1 - 0.54) = 7.36 ft, above the 5 ft top:
  // B5, "a line passing above a low wall is clear"; it meets the 10 ft floor
  // at x = 862.5, outside the keep (the Levels hole), and the ground-floor
  // walls at x = 950 at 12.8 ft, above their 9 ft top; the gallery's west
  // side does not restrict sight. The torch is at ground level behind the
  // low wall, so the spy stands in darkness, 25 ft from the lookout, within
  // its 60 ft darkvision: not concealed. Clear view: one O4 check.
  const overWall = third.moves[0];
  assert.deepEqual(overWall.at, { x: 500, y: 1850 });
  assert.equal(overWall.inDarkness, true);
  assert.equal(view(overWall, "gate-guard"), false);
  assert.equal(view(overWall, "lookout"), true);
  assert.equal(overWall.view.find((v) => v.observer === "lookout").distance, 25);
  const spyBehindWall = { x: 500, y: 1850 };
  assert.deepEqual(nightView(scenario, 3, guardToken, spyBehindWall, 0).blockingWalls.map((w) => w.id), ["lowCourtyardWall"]);
  // The same line from the gallery's floor plan at ground level would hit the low wall:
  assert.deepEqual(nightView(scenario, 3, { ...lookoutToken, elevation: 0 }, spyBehindWall, 60).blockingWalls.map((w) => w.id), ["lowCourtyardWall"]);
  assert.equal(checks.length, 2, "one O4 check each, never rolled again");
  assert.equal(checks[1].observer, "lookout");
  assert.equal(checks[1].clause, "O4");
  const lookoutPerceives = checks[1].total >= stealth;
  assert.deepEqual(overWall.perceivedBy, { "gate-guard": guardPerceives, lookout: lookoutPerceives });

  // The spy ends at 600,2300 (centre 650,2350): the gate guard's line meets
  // the keep's wall 6R1H7yX5aQzpNFQJ, the lookout's the gallery's south wall
  // fbwT8yY9foEDxtdH. O5: a pair that failed its check in clear view is
  // exposed, and becomes perceived at the end of the turn "unless the hider
  // moved during that turn and the view is now broken": the spy moved and no
  // view holds, so the stored O4 results stand.
  const last = third.moves[1];
  assert.deepEqual(last.view.map((v) => v.clearView), [false, false]);
  assert.deepEqual(third.afterTurnEnd, { "gate-guard": guardPerceives, lookout: lookoutPerceives });
  // With seed 11 the dice tell the scenario's story: the gate guard's check
  // ties the spy's total (perceived), the lookout's fails.
  assert.equal(checks[0].total, stealth);
  assert.equal(lookoutPerceives, false);
});

test("darkvision comes from the dnd5e senses in both SRD shapes", () => {
  const srd51 = JSON.parse(readFileSync(fileURLToPath(new URL("../../../shared/fixtures/dnd5e-srd51-monsters.json", import.meta.url)), "utf8"));
  const srd52 = JSON.parse(readFileSync(fileURLToPath(new URL("../../../shared/fixtures/dnd5e-srd52-monsters.json", import.meta.url)), "utf8"));
  const by = (list, name) => list.find((a) => a.name === name);
  // SRD 5.1 flat senses: Goblin darkvision 60; Giant Spider darkvision 60 and blindsight 10 (the longest counts); Guard none.
  assert.equal(darkvision(by(srd51, "Goblin")), 60);
  assert.equal(darkvision(by(srd51, "Giant Spider")), 60);
  assert.equal(darkvision(by(srd51, "Guard")), 0);
  // SRD 5.2 `ranges` with null for none: Goblin Warrior 60, Guard 0.
  assert.equal(darkvision(by(srd52, "Goblin Warrior")), 60);
  assert.equal(darkvision(by(srd52, "Guard")), 0);
});

test("the night scenario's fields are checked, each error naming its field and running nothing", () => {
  const night = JSON.parse(readFileSync(fileURLToPath(new URL(`../../${NIGHT}`, import.meta.url)), "utf8"));
  const fixtures = fileURLToPath(new URL("../../../shared/fixtures/", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "furtive-night-"));
  const refused = (change, field, message) => {
    const scenario = structuredClone(night);
    scenario.scene = join(fixtures, "scene-ocd-nort-gate.json");
    scenario.actors = join(fixtures, "dnd5e-srd51-monsters.json");
    change(scenario);
    const file = join(dir, "scenario.json");
    writeFileSync(file, JSON.stringify(scenario));
    const result = spawnSync(process.execPath, ["demo/run.mjs", "--scenario", file], { cwd: root, encoding: "utf8" });
    assert.equal(result.status, 2, `${field}: ${result.stderr}`);
    assert.equal(result.stdout, "", "nothing is played");
    assert.equal(result.stderr, `furtive demo: [invalid_scenario] ${field}: ${message}\n`);
  };
  // The unchanged copy runs (the paths are the only difference).
  const ok = structuredClone(night);
  ok.scene = join(fixtures, "scene-ocd-nort-gate.json");
  ok.actors = join(fixtures, "dnd5e-srd51-monsters.json");
  writeFileSync(join(dir, "ok.json"), JSON.stringify(ok));
  assert.equal(spawnSync(process.execPath, ["demo/run.mjs", "--scenario", join(dir, "ok.json")], { cwd: root, encoding: "utf8" }).status, 0);

  refused((s) => (s.lighting = { darkness: 1.5 }), "lighting.darkness", "expected a darkness level from 0 (midday) to 1 (midnight)");
  refused((s) => (s.lighting = { globalLight: "off" }), "lighting.globalLight", "expected true or false");
  refused((s) => (s.lighting = { darknessLevel: 1 }), "lighting.darknessLevel", "unknown field (expected darkness or globalLight)");
  refused((s) => (s.lighting = [1]), "lighting", "expected an object { darkness?, globalLight? }");
  refused((s) => (s.lights[0].dim = -40), "lights[0].dim", "expected a number >= 0 (scene units)");
  refused((s) => delete s.lights[0].bright, "lights[0].bright", "expected a finite number");
  refused((s) => (s.lights[0].litAtTurn = 4), "lights[0].litAtTurn", "expected a turn number from 1 to 3");
  refused((s) => (s.lights[0].litAtTurn = 2.5), "lights[0].litAtTurn", "expected a turn number from 1 to 3");
  refused((s) => s.lights.push({ ...s.lights[0] }), "lights[1].id", '"gateTorch" is already a light of the scene or of this scenario');
  refused((s) => (s.lights = { gateTorch: {} }), "lights", "expected an array of lights");
  // Walls are read by the engine's scene reader (parseScene), whose error names the path.
  refused((s) => (s.walls[0].c = [780, 1650, 780]), "walls[0].c", "expected an array of 4 numbers [x0, y0, x1, y1], got an array of 3 items");
  refused((s) => (s.walls[0].flags["wall-height"].top = "5 ft"), "walls[0].flags.wall-height.top", 'expected a finite number, got string "5 ft"');
  refused((s) => (s.walls[0]._id = "QHbvRCG6S1EpLxsM"), "walls[0]._id", '"QHbvRCG6S1EpLxsM" is already a wall of the scene or of this scenario');
  refused((s) => delete s.walls[0]._id, "walls[0]._id", "expected a non-empty string");
  refused((s) => (s.observers[1].elevation = "balcony"), "observers[1].elevation", "expected a finite number");
  refused((s) => (s.observers[1].darkvision = -60), "observers[1].darkvision", "expected a number >= 0 (scene units)");
  refused((s) => (s.doors = [{ wallId: "nope", state: "open" }]), "doors[0].wallId", 'no wall "nope" in the scene');
  refused((s) => (s.doors = [{ wallId: "QHbvRCG6S1EpLxsM", state: "open" }]), "doors[0].wallId", 'wall "QHbvRCG6S1EpLxsM" is not a door');
  refused((s) => (s.doors = [{ wallId: "kv3XzwiLDsuIK61t", state: "ajar" }]), "doors[0].state", 'expected "open", "closed" or "locked"');
  refused((s) => (s.doors = [{ wallId: "kv3XzwiLDsuIK61t", state: "closed", atTurn: 4 }]), "doors[0].atTurn", "expected a turn number from 1 to 3");
  refused((s) => (s.doors = { kv3XzwiLDsuIK61t: "open" }), "doors", "expected an array of { wallId, state, atTurn? }");
});

test("a scenario's doors: the gate's west door shut, or shut and opened at turn 3, decides the gate guard's view (B5, O4)", () => {
  // The night run lights the torch at turn 3 with the spy at 800,1850 in
  // front of the gate's west door (kv3XzwiLDsuIK61t, open in the export):
  // the gate guard has clear view through it. Shut from the start, the door
  // (x = 950, y 1850-1950) cuts the line y = 1900 from the guard and keeps
  // the torch's light, east of it, off the spy; shut, then opened at turn 3,
  // it lets both through again.
  const night = JSON.parse(readFileSync(fileURLToPath(new URL(`../../${NIGHT}`, import.meta.url)), "utf8"));
  const fixtures = fileURLToPath(new URL("../../../shared/fixtures/", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "furtive-doors-"));
  night.scene = join(fixtures, "scene-ocd-nort-gate.json");
  night.actors = join(fixtures, "dnd5e-srd51-monsters.json");
  const play = (doors) => {
    writeFileSync(join(dir, "doors.json"), JSON.stringify({ ...night, doors }));
    return demo("--scenario", join(dir, "doors.json"))[0];
  };
  const guard = (at) => at.view.find((v) => v.observer === "gate-guard").clearView;
  const shut = play([{ wallId: "kv3XzwiLDsuIK61t", state: "closed" }]);
  assert.deepEqual(shut.steps[2].lightsLit.at, { x: 800, y: 1850 });
  assert.equal(shut.steps[2].lightsLit.inDarkness, true, "the shut door keeps the torchlight off");
  assert.equal(guard(shut.steps[2].lightsLit), false, "the shut door blocks the line");
  const opened = play([{ wallId: "kv3XzwiLDsuIK61t", state: "closed" }, { wallId: "kv3XzwiLDsuIK61t", state: "open", atTurn: 3 }]);
  assert.deepEqual(opened.steps[2].lightsLit.doors, [{ wallId: "kv3XzwiLDsuIK61t", state: "open", atTurn: 3 }]);
  assert.equal(opened.steps[2].lightsLit.inDarkness, false);
  assert.equal(guard(opened.steps[2].lightsLit), true, "opened with the torch lit: clear view");
  assert.equal(checksOf(opened.steps[2])[0]?.observer, "gate-guard", "O4: an immediate check");
});

test("two observers in clear view at once: one Perception check request names both, each answered and shown (O4)", () => {
  // The opposed walk with turn 2 going straight into the hall (1050,1850):
  // the gate guard and the giant spider both have clear view there (see
  // CLEAR_VIEW; the spider, 15 ft away, is beyond its 10 ft blindsight), so
  // the engine asks for both checks against the spy in one request.
  const opposed = JSON.parse(readFileSync(fileURLToPath(new URL("../../demo/scenarios/nort-gate-opposed.json", import.meta.url)), "utf8"));
  const fixtures = fileURLToPath(new URL("../../../shared/fixtures/", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "furtive-both-"));
  opposed.scene = join(fixtures, "scene-ocd-nort-gate.json");
  opposed.actors = join(fixtures, "dnd5e-srd51-monsters.json");
  opposed.turns = [opposed.turns[0], { note: "into the hall", moves: [{ x: 1050, y: 1850 }] }];
  delete opposed.finale;
  const file = join(dir, "both.json");
  writeFileSync(file, JSON.stringify(opposed));
  const [run] = demo("--scenario", file, "--seed", "23");
  const second = run.steps[1];
  const checks = second.requests.filter((r) => r.request.kind === "perceptionCheck");
  assert.deepEqual(checks.map((r) => r.request), [{ kind: "perceptionCheck", hider: "spy", observers: ["gate-guard", "spider"], clause: "O4" }]);
  const [guard, spider] = checksOf(second);
  const stealth = stealthRollOf(run.steps[0]).roll;
  assert.deepEqual(second.moves[0].perceivedBy, { "gate-guard": guard.total >= stealth, scout: false, wolf: false, spider: spider.total >= stealth });
  // The text run shows the one request with both observers and both totals.
  const text = spawnSync(process.execPath, ["demo/run.mjs", "--scenario", file, "--seed", "23"], { cwd: root, encoding: "utf8" });
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`request perceptionCheck Gate guard, Giant Spider vs Spy \\(O4\\) -> seeded roller: Perception ${guard.total}, Perception ${spider.total}`));
});
