// The `SceneSight` class through both backends (the napi addon and wasm in
// Node) on Nort Gate (shared/fixtures): its answers agree with the free
// scene functions and across backends; an update (a door, a token move)
// gives the answers of a freshly parsed scene; bad input to every method
// throws the same code and message on both backends and changes nothing;
// free(), session_lost after a panic. Wasm in headless Chromium answers
// and refuses as napi does.
//
//   node --test tests/js/scene-sight.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { REPO, loadNodeImpl } from "./impl.mjs";
import { serve, withPage } from "./chromium.mjs";
import { plainDataProblem } from "./runner.mjs";

const backends = { napi: await loadNodeImpl("napi"), wasm: await loadNodeImpl("wasm-node") };
const fixtures = process.env.FURTIVE_FIXTURES
  ? pathToFileURL(`${process.env.FURTIVE_FIXTURES.replace(/\/$/, "")}/`)
  : new URL("../shared/fixtures/", REPO);
/** Nort Gate: a 0.8-layout export with 443 walls (52 doors) and no tokens. */
const nortGate = JSON.parse(readFileSync(new URL("scene-ocd-nort-gate.json", fixtures), "utf8"));
const size = nortGate.grid;

/** A one-space token (0.8 layout) whose centre is at (`cx`, `cy`). */
const tokenAt = (id, cx, cy) => ({ _id: id, x: cx - size / 2, y: cy - size / 2, width: 1, height: 1, elevation: 0 });

/** Nort Gate with `tokens` placed on it. */
const withTokens = (tokens, walls = nortGate.walls) => ({ ...nortGate, tokens, walls });

/** Eight tokens on a fixed grid over the scene. */
const eight = Array.from({ length: 8 }, (_, i) =>
  tokenAt(`t${i}`, Math.round(((i % 4) + 0.5) * (nortGate.width / 4)), Math.round((Math.floor(i / 4) + 0.5) * (nortGate.height / 2))),
);
const scene = withTokens(eight);

/**
 * The first closed door with a token on each side, 80 px from its middle,
 * whose sight line it decides on a freshly parsed scene (closed: blocked;
 * open: clear). Found with the free `clearView`, not with SceneSight.
 */
function doorBetweenTwoTokens(api) {
  for (const [index, wall] of nortGate.walls.entries()) {
    if (wall.door !== 1 || wall.ds !== 0) continue;
    const [x0, y0, x1, y1] = wall.c;
    const length = Math.hypot(x1 - x0, y1 - y0);
    const [nx, ny] = [-(y1 - y0) / length, (x1 - x0) / length];
    const [mx, my] = [(x0 + x1) / 2, (y0 + y1) / 2];
    const tokens = [tokenAt("near", mx + 80 * nx, my + 80 * ny), tokenAt("far", mx - 80 * nx, my - 80 * ny)];
    const query = { from: { tokenId: "near" }, to: { tokenId: "far" } };
    const closed = api.clearView(withTokens(tokens), query);
    const openWalls = nortGate.walls.map((w, i) => (i === index ? { ...w, ds: 1 } : w));
    const open = api.clearView(withTokens(tokens, openWalls), query);
    if (!closed.sightLine && open.sightLine) return { wall, tokens, openWalls, query };
  }
  throw new Error("no door of Nort Gate decides a sight line between two tokens beside it");
}

test("SceneSight answers what the free scene functions answer, the same on napi and wasm", () => {
  const answers = {};
  for (const [backend, api] of Object.entries(backends)) {
    const sight = api.SceneSight.parse(scene);
    const normalized = api.parseScene(scene);
    assert.deepStrictEqual(sight.scene(), normalized, `${backend}: scene() is the normalized scene`);
    const matrix = sight.clearViewMatrix();
    assert.deepStrictEqual(matrix, api.clearViewMatrix(scene), backend);
    assert.ok(matrix.clearView.flat().includes(false) && matrix.clearView.flat().filter(Boolean).length > 8, `${backend}: some pairs see each other, some do not`);
    for (const [i, observer] of matrix.ids.entries()) {
      const from = sight.clearViewFrom(observer);
      assert.deepStrictEqual(from.clearView, matrix.clearView[i], `${backend}: clearViewFrom(${observer}) is the matrix row`);
      assert.deepStrictEqual(from.distance, matrix.distance[i], backend);
      assert.deepStrictEqual(from.inDarkness, matrix.inDarkness, backend);
      for (const [j, target] of matrix.ids.entries()) {
        const query = { from: { tokenId: observer }, to: { tokenId: target } };
        const answer = sight.clearView(query);
        if (i !== j) assert.deepStrictEqual(answer, api.clearView(scene, query), `${backend}: clearView ${observer}->${target}`);
        const view = sight.view(observer, target);
        assert.equal(view.clearView, matrix.clearView[i][j], `${backend}: view ${observer}->${target}`);
        assert.equal(view.distance, matrix.distance[i][j], backend);
      }
    }
    const point = { x: 1234.5, y: 2345.5 };
    assert.deepStrictEqual(sight.lightingAt(point), api.clearView(scene, { from: point, to: point }).targetLighting, backend);
    assert.deepStrictEqual(sight.lightingOf("t3"), sight.clearView({ from: { tokenId: "t0" }, to: { tokenId: "t3" } }).targetLighting, backend);
    assert.equal(plainDataProblem(matrix), null, backend);
    // The normalized scene reads back to the same answers.
    const again = api.SceneSight.parse(sight.scene());
    assert.deepStrictEqual(again.clearViewMatrix(), matrix, backend);
    answers[backend] = { matrix, from: sight.clearViewFrom("t5"), view: sight.view("t1", "t6"), light: sight.lightingAt(point) };
    sight.free();
    again[Symbol.dispose]();
  }
  assert.deepStrictEqual(answers.wasm, answers.napi, "napi and wasm must answer the same");
});

test("B5 distances are the same number to the last bit on napi and wasm (no platform hypot)", () => {
  // Token centres 98 px apart across and 91 down: the platform's hypot
  // (glibc natively, Rust's libm port in wasm) rounded this one differently.
  const pair = [tokenAt("a", 40, 129), tokenAt("b", 138, 38)];
  // And a spread of tokens over Nort Gate, every pair.
  const spread = Array.from({ length: 20 }, (_, i) => tokenAt(`s${i}`, 7 * i + 31 + size / 2, 13 * ((i * 7) % 17) + size / 2));
  const answers = {};
  for (const [backend, api] of Object.entries(backends)) {
    const sight = api.SceneSight.parse(withTokens([...pair, ...spread]));
    const { distance } = sight.clearViewMatrix();
    const [dx, dy] = [98, 91];
    const { grid } = sight.scene();
    assert.equal(sight.view("a", "b").distance, (Math.sqrt(dx * dx + dy * dy) * grid.distance) / grid.size, `${backend}: the correctly rounded distance`);
    answers[backend] = distance;
    sight.free();
  }
  assert.deepStrictEqual(answers.wasm, answers.napi, "napi and wasm must give the same distances");
});

test("SceneSight.update: a door opened and closed, a token moved, answer as a freshly parsed scene does (both backends)", () => {
  for (const [backend, api] of Object.entries(backends)) {
    const { wall, tokens, openWalls, query } = doorBetweenTwoTokens(api);
    const sight = api.SceneSight.parse(withTokens(tokens));
    assert.equal(sight.clearView(query).sightLine, false, `${backend}: the closed door blocks`);
    assert.equal(sight.view("near", "far").clearView, false, backend);

    assert.equal(sight.update({ type: "door", wallId: wall._id, state: "open" }), null, backend);
    const fresh = api.SceneSight.parse(withTokens(tokens, openWalls));
    assert.deepStrictEqual(sight.clearView(query), fresh.clearView(query), `${backend}: open door, as a fresh parse`);
    assert.equal(sight.view("near", "far").clearView, true, `${backend}: the open door lets sight through`);
    assert.deepStrictEqual(sight.clearViewMatrix(), fresh.clearViewMatrix(), backend);
    assert.deepStrictEqual(sight.scene(), fresh.scene(), `${backend}: the updated scene is the fresh one`);

    // Foundry's `ds` numbers work too; closing restores the first answer.
    sight.update([{ type: "door", wallId: wall._id, state: 0 }]);
    assert.deepStrictEqual(sight.clearView(query), api.clearView(withTokens(tokens), query), `${backend}: closed again`);

    // One transaction: open the door and move `far` next to `near`.
    const moved = tokenAt("far", tokens[0].x + size * 1.5, tokens[0].y + size * 0.5);
    sight.update([{ type: "door", wallId: wall._id, state: "open" }, { type: "tokenMoved", tokenId: "far", x: moved.x, y: moved.y }]);
    const movedScene = withTokens([tokens[0], moved], openWalls);
    assert.deepStrictEqual(sight.clearView(query), api.clearView(movedScene, query), `${backend}: door and move, as a fresh parse`);
    assert.deepStrictEqual(sight.clearViewFrom("near"), api.SceneSight.parse(movedScene).clearViewFrom("near"), backend);
    sight.free();
    fresh.free();
  }
});

// [name, call (api, sight), expected code, the field the message must start with]
const cases = [
  ["SceneSight.parse without a scene", (api) => api.SceneSight.parse(), "invalid_input", "scene"],
  ["SceneSight.parse of a bad wall", (api) => api.SceneSight.parse({ ...scene, walls: [{ c: "wall" }] }), "invalid_scene", "walls[0].c"],
  ["SceneSight.parse with a duplicate token", (api) => api.SceneSight.parse({ ...scene, tokens: [eight[0], eight[0]] }), "duplicate_token", "tokens[1].id"],
  ["new SceneSight()", (api) => new api.SceneSight(), "invalid_input", "SceneSight"],
  ["clearView without a query", (api, s) => s.clearView(), "invalid_input", "query"],
  ["clearView: unknown observer token", (api, s) => s.clearView({ from: { tokenId: "nobody" }, to: { x: 0, y: 0 } }), "unknown_token", "query.from.tokenId"],
  ["clearView: unknown target token", (api, s) => s.clearView({ from: { tokenId: "t0" }, to: { tokenId: "ghost" } }), "unknown_token", "query.to.tokenId"],
  ["clearView: NaN", (api, s) => s.clearView({ from: { x: NaN, y: 0 }, to: { x: 0, y: 0 } }), "invalid_input", "query.from.x"],
  ["clearView: negative darkvision", (api, s) => s.clearView({ from: { tokenId: "t0" }, to: { x: 0, y: 0 }, darkvision: -1 }), "invalid_input", "query.darkvision"],
  ["view without a target", (api, s) => s.view("t0"), "invalid_input", "target"],
  ["view: a number for the observer", (api, s) => s.view(3, "t1"), "invalid_input", "observer"],
  ["view: unknown observer", (api, s) => s.view("ghost", "t1"), "unknown_token", "observer"],
  ["view: unknown target", (api, s) => s.view("t0", "ghost"), "unknown_token", "target"],
  ["clearViewFrom: unknown observer", (api, s) => s.clearViewFrom("ghost"), "unknown_token", "observer"],
  ["clearViewFrom: an object", (api, s) => s.clearViewFrom({}), "invalid_input", "observer"],
  ["clearViewMatrix called on another object", (api) => api.SceneSight.prototype.clearViewMatrix.call({}), "invalid_input", "clearViewMatrix"],
  ["lightingAt: a string coordinate", (api, s) => s.lightingAt({ x: "a", y: 0 }), "invalid_input", "point.x"],
  ["lightingAt: Infinity", (api, s) => s.lightingAt({ x: Infinity, y: 0 }), "invalid_input", "point.x"],
  ["lightingAt: unknown field", (api, s) => s.lightingAt({ x: 1, y: 2, z: 3 }), "invalid_input", "point.z"],
  ["lightingOf: unknown token", (api, s) => s.lightingOf("ghost"), "unknown_token", "token"],
  ["lightingOf: a number", (api, s) => s.lightingOf(7), "invalid_input", "token"],
  ["update without updates", (api, s) => s.update(), "invalid_input", "updates"],
  ["update: unknown type", (api, s) => s.update({ type: "teleport" }), "invalid_input", "updates[0].type"],
  ["update: a door state that is not one", (api, s) => s.update({ type: "door", wallId: nortGate.walls.find((w) => w.door === 1)._id, state: "ajar" }), "invalid_input", "updates[0].state"],
  ["update: the second update refused (the door of the first stays closed)", (api, s) => s.update([{ type: "door", wallId: nortGate.walls.find((w) => w.door === 1)._id, state: "open" }, { type: "door", wallId: "nope", state: "open" }]), "invalid_input", "updates[1].wallId"],
  ["update: a wall removed, then an unknown light (the wall stays)", (api, s) => s.update([{ type: "wallRemoved", wallId: nortGate.walls[0]._id }, { type: "lightHidden", lightId: "x", hidden: true }]), "invalid_input", "updates[1].lightId"],
  ["update: unknown token moved", (api, s) => s.update({ type: "tokenMoved", tokenId: "ghost", x: 0, y: 0 }), "unknown_token", "updates[0].tokenId"],
  ["update: darkness out of range", (api, s) => s.update({ type: "darkness", darkness: 2 }), "invalid_input", "updates[0].darkness"],
  ["update: a token moved, then NaN (the token stays)", (api, s) => s.update([{ type: "tokenMoved", tokenId: "t0", x: 900, y: 900 }, { type: "darkness", darkness: NaN }]), "invalid_input", "updates[1].darkness"],
];

for (const [name, call, code, field] of cases) {
  test(`SceneSight bad input: ${name}`, () => {
    const thrown = {};
    for (const [backend, api] of Object.entries(backends)) {
      const sight = api.SceneSight.parse(scene);
      const before = { scene: sight.scene(), matrix: sight.clearViewMatrix() };
      let error;
      assert.throws(() => call(api, sight), (e) => ((error = e), true), `${backend} did not throw`);
      assert.ok(error instanceof Error, `${backend}: threw ${typeof error}, not an Error`);
      assert.ok(api.errorCodes().includes(error.code), `${backend}: code ${error.code} is not in errorCodes()`);
      assert.equal(error.code, code, `${backend}: ${error.message}`);
      assert.ok(error.message.startsWith(field), `${backend}: message does not name ${field}: ${error.message.slice(0, 200)}`);
      assert.deepStrictEqual(sight.scene(), before.scene, `${backend}: a refused call changed the scene`);
      assert.deepStrictEqual(sight.clearViewMatrix(), before.matrix, `${backend}: a refused call changed the answers`);
      thrown[backend] = { code: error.code, message: error.message };
      sight.free();
    }
    assert.deepEqual(thrown.wasm, thrown.napi, "napi and wasm must refuse with the same code and message");
  });
}

test("SceneSight: calls after free() throw session_freed; free() twice is harmless", () => {
  for (const [backend, api] of Object.entries(backends)) {
    const sight = api.SceneSight.parse(scene);
    sight.free();
    sight.free();
    for (const call of [() => sight.clearViewMatrix(), () => sight.view("t0", "t1"), () => sight.update({ type: "darkness", darkness: 0 }), () => sight.scene()]) {
      assert.throws(call, (e) => e instanceof Error && e.code === "session_freed" && /SceneSight was freed/.test(e.message), backend);
    }
    // What a `using` block calls at its end (Node 20 has no `using` syntax yet).
    const scoped = api.SceneSight.parse(scene);
    assert.equal(scoped.view("t0", "t0").clearView, true, backend);
    scoped[Symbol.dispose]();
    assert.throws(() => scoped.scene(), (e) => e.code === "session_freed", `${backend}: Symbol.dispose frees it`);
  }
});

test("napi: a panic in a SceneSight's call loses that scene only (session_lost)", () => {
  const api = backends.napi;
  const sight = api.SceneSight.parse(scene);
  const other = api.SceneSight.parse(scene);
  assert.throws(() => sight.__panicForTests(), (e) => e.code === "engine_panicked" && e.message.includes("deliberate panic for tests"));
  for (const call of [() => sight.clearViewMatrix(), () => sight.update({ type: "darkness", darkness: 0 })]) {
    assert.throws(call, (e) => e instanceof Error && e.code === "session_lost" && /SceneSight\.parse\(scene\)/.test(e.message));
  }
  assert.equal(other.view("t0", "t0").clearView, true, "another scene is untouched");
  sight.free();
  assert.throws(() => sight.scene(), (e) => e.code === "session_freed");
  other.free();
});

test("wasm: after a panic resets the instance, every older SceneSight answers session_lost; a new parse works", () => {
  const api = backends.wasm;
  const sight = api.SceneSight.parse(scene);
  const expected = sight.clearViewMatrix();
  assert.throws(() => sight.__panicForTests(), (e) => e.code === "engine_panicked");
  assert.throws(() => sight.clearViewMatrix(), (e) => e.code === "session_lost" && /SceneSight\.parse\(scene\)/.test(e.message));
  sight.free(); // harmless: nothing of the old instance is freed in the new one
  const again = api.SceneSight.parse(scene);
  assert.deepStrictEqual(again.clearViewMatrix(), expected);
  again.free();
});

/** The answers the Chromium test compares: every call runs on one SceneSight, in this order. */
function chromiumScript(api, { scene, wall, tokens, query }) {
  const answers = [];
  const attempt = (call) => {
    try {
      answers.push(call());
    } catch (error) {
      answers.push({ code: error.code, message: error.message });
    }
  };
  const sight = api.SceneSight.parse(scene);
  attempt(() => sight.clearViewMatrix());
  attempt(() => sight.clearViewFrom("t2"));
  attempt(() => sight.view("t0", "t4"));
  attempt(() => sight.clearView({ from: { tokenId: "t1" }, to: { x: 10, y: 10 } }));
  attempt(() => sight.lightingAt({ x: 10, y: 10 }));
  attempt(() => sight.update([{ type: "token", token: tokens[0] }, { type: "token", token: tokens[1] }]));
  attempt(() => sight.clearView(query));
  attempt(() => sight.update({ type: "door", wallId: wall._id, state: "open" }));
  attempt(() => sight.clearView(query));
  attempt(() => sight.update([{ type: "door", wallId: wall._id, state: "closed" }, { type: "door", wallId: "nope", state: "open" }]));
  attempt(() => sight.clearView(query));
  attempt(() => sight.view("t0", "ghost"));
  attempt(() => sight.lightingAt({ x: "a", y: 0 }));
  attempt(() => api.SceneSight.parse({ ...scene, walls: [{ c: "wall" }] }));
  sight.free();
  attempt(() => sight.scene());
  return answers;
}

test("wasm in headless Chromium: SceneSight answers and refuses as napi does", async () => {
  const { wall, tokens, query } = doorBetweenTwoTokens(backends.napi);
  const input = { scene, wall, tokens, query };
  const expected = chromiumScript(backends.napi, input);
  assert.equal(expected[8].sightLine, true, "the door opened in the script");
  assert.equal(expected[10].sightLine, true, "the refused update left the door open");
  const server = await serve(fileURLToPath(REPO));
  try {
    const got = await withPage(server.origin, async (page) => {
      const answers = await page.evaluate(
        async ({ script, input }) => {
          const api = await import("/npm/browser.js");
          await api.init();
          return new Function("api", "input", `return (${script})(api, input);`)(api, input);
        },
        { script: chromiumScript.toString(), input },
      );
      assert.deepEqual(page.furtiveErrors, []);
      return answers;
    });
    assert.deepStrictEqual(got, expected);
  } finally {
    await server.close();
  }
});
