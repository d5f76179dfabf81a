// The scene functions (parseScene, clearView, clearViewMatrix) through both
// backends on the real Foundry scenes of shared/fixtures (beside the
// repository, or the directory in FURTIVE_FIXTURES, as for the Rust scene
// tests): the napi addon and wasm in Node must return the same plain data.
//
//   node --test tests/js/scenes.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { REPO, loadNodeImpl } from "./impl.mjs";
import { plainDataProblem } from "./runner.mjs";

const backends = { napi: await loadNodeImpl("napi"), wasm: await loadNodeImpl("wasm-node") };
const fixtures = process.env.FURTIVE_FIXTURES
  ? pathToFileURL(`${process.env.FURTIVE_FIXTURES.replace(/\/$/, "")}/`)
  : new URL("../shared/fixtures/", REPO);
const scenes = ["scene-ocd-nort-gate.json", "scene-zahi-oota-warning-sign.json"].map((file) => ({
  file,
  raw: JSON.parse(readFileSync(new URL(file, fixtures), "utf8")),
}));

/** Calls `fn` on both backends; returns the common result after checking they agree. */
function both(fn) {
  const results = Object.entries(backends).map(([name, api]) => {
    try {
      return { name, ok: fn(api) };
    } catch (error) {
      return { name, error: { code: error.code, message: error.message } };
    }
  });
  assert.deepStrictEqual(results[1].ok ?? results[1].error, results[0].ok ?? results[0].error, "napi and wasm disagree");
  return results[0];
}

for (const { file, raw } of scenes) {
  test(`${file}: parseScene, clearViewMatrix and clearView agree on napi and wasm`, () => {
    const { ok: scene } = both((api) => api.parseScene(raw));
    assert.equal(scene.furtiveScene, 1);
    assert.ok(scene.walls.length > 100, "a real scene with its walls");
    assert.equal(plainDataProblem(scene), null);
    // A normalized scene parses to itself.
    assert.deepStrictEqual(both((api) => api.parseScene(scene)).ok, scene);

    // The scene's own tokens: an omitted `tokens` argument and `null` agree.
    const { ok: own } = both((api) => api.clearViewMatrix(raw));
    assert.deepEqual(own.ids, scene.tokens.map((token) => token.id));
    assert.deepStrictEqual(both((api) => api.clearViewMatrix(raw, null)).ok, own);

    // Eight placements spread over the scene.
    const width = scene.width ?? 2000;
    const height = scene.height ?? 2000;
    const placements = Array.from({ length: 8 }, (_, i) => ({
      id: `t${i}`,
      x: Math.round(((i % 4) + 0.5) * (width / 4)),
      y: Math.round((Math.floor(i / 4) + 0.5) * (height / 2)),
    }));
    const { ok: matrix } = both((api) => api.clearViewMatrix(scene, placements));
    assert.deepEqual(matrix.ids, placements.map((p) => p.id));
    assert.equal(plainDataProblem(matrix), null);
    const flat = matrix.clearView.flat();
    assert.ok(flat.includes(false), "some placements are walled off from each other");

    for (const [i, j] of [[0, 1], [1, 6], [7, 2]]) {
      const end = ({ x, y }) => ({ token: { x, y } });
      const { ok: view } = both((api) => api.clearView(scene, { from: end(placements[i]), to: end(placements[j]) }));
      assert.equal(view.clearView, matrix.clearView[i][j], `clearView ${i}->${j} agrees with the matrix`);
      assert.equal(view.distance, matrix.distance[i][j]);
      assert.equal(plainDataProblem(view), null);
    }
  });
}

test("scene refusals: same code and message on both backends", () => {
  const [{ raw }] = scenes;
  const cases = [
    [(api) => api.clearView(raw, { from: { tokenId: "nobody" }, to: { x: 0, y: 0 } }), "unknown_token"],
    [(api) => api.clearView(raw, { from: { x: NaN, y: 0 }, to: { x: 0, y: 0 } }), "invalid_input"],
    [(api) => api.clearViewMatrix(raw, [{ id: "a", x: 0, y: 0 }, { id: "a", x: 1, y: 1 }]), "duplicate_token"],
    [(api) => api.clearViewMatrix(raw, [undefined]), "invalid_input"],
    [(api) => api.parseScene({ ...raw, walls: [{ c: "wall" }] }), "invalid_scene"],
    [(api) => api.parseScene(undefined), "invalid_input"],
  ];
  for (const [call, code] of cases) {
    const result = both(call);
    assert.equal(result.ok, undefined, "the call must fail");
    assert.equal(result.error.code, code, result.error.message);
  }
});
