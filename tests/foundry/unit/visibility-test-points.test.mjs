/**
 * Clear view on the points Foundry tests a token's visibility with. On v14 a
 * token is visible when any of its visibility test points is
 * (`TokenDocument#getVisibilityTestPoints()`, the centre of every grid space of
 * its shape; `CanvasVisibility#testVisibility` with several points "If one of
 * them is visible, the function returns true", foundryvtt/foundryvtt#13633,
 * renamed by #13834), so the observer has a line to a hider when it has one to
 * any of those points. On v13 the test is the token's centre
 * (`CanvasVisibility#testVisibility(point, {tolerance, object})`,
 * https://foundryvtt.com/api/v13/classes/foundry.canvas.groups.CanvasVisibility.html).
 *
 * Layout (world-data.mjs, grid 100 px): the door at x = 500 is open; the rogue
 * is Large (2 x 2, x 200-400, y 300-500, centre (300, 400), grid-space centres
 * (250|350, 350|450)); a short wall at x = 400 from y = 380 to 440 hides its
 * centre from the sentry (centre (750, 450)), whose line to the grid-space
 * centre (350, 450) passes below the wall's end.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { DOOR, TOKENS, apiOf, hideRogue, setup, shutdown } from "./world.mjs";

function largeRogueBehindACorner(world) {
  const scene = world.scenes[0];
  Object.assign(scene.walls.find((w) => w._id === DOOR), { ds: 1 });
  scene.walls.push({ _id: "wallCorner000001", c: [400, 380, 400, 440], move: 20, sight: 20, light: 20, sound: 20, door: 0, ds: 0 });
  Object.assign(scene.tokens.find((t) => t._id === TOKENS.rogue), { x: 200, y: 300, width: 2, height: 2 });
}

for (const version of [13, 14]) {
  describe(`Foundry ${version}: a Large hider whose centre is behind a wall corner, one of its grid spaces in view`, () => {
    let env;
    before(async () => {
      env = await setup({ version, world: largeRogueBehindACorner });
      await hideRogue(env);
    });
    after(() => shutdown(env));

    const pairs = () => apiOf(env.gm).getState().hiders[TOKENS.rogue].pairs;

    if (version >= 14) {
      it("v14: the sentry has a clear view of the rogue (a test point is in view), as Foundry would draw it", () => {
        assert.equal(pairs()[TOKENS.sentry].clearView, true);
      });
    } else {
      it("v13: the sentry has no clear view of the rogue (its centre is the test point, behind the wall)", () => {
        assert.equal(pairs()[TOKENS.sentry].clearView, false);
      });
    }

    it("the lookout, whose line to the centre passes below the wall, has a clear view on both", () => {
      assert.equal(pairs()[TOKENS.lookout].clearView, true);
    });
  });
}
