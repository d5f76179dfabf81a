/**
 * A window (a proximity wall) between the rogue and the east side, as the
 * observers' line of sight draws it: an observer within the wall's sight
 * threshold sees through it, one beyond it does not (the walls article,
 * https://foundryvtt.com/article/walls/; `WallThresholdData#sight`, "Minimum
 * distance from a vision source for which this wall blocks vision",
 * https://foundryvtt.com/api/interfaces/foundry.documents.types.WallThresholdData.html).
 * Foundry's collision test applies thresholds only when asked (`useThreshold`,
 * https://foundryvtt.com/api/interfaces/foundry.canvas.geometry.types.PointSourcePolygonConfig.html),
 * so the module's clear view asks for them.
 *
 * Layout (world-data.mjs, grid 100 px = 5 ft): the door at x = 500 becomes a
 * window with a sight threshold of 15 ft. The sentry's centre is 250 px
 * (12.5 ft) from the window, the lookout's line to the rogue crosses it
 * 369 px (18.4 ft) away.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { DOOR, TOKENS, apiOf, hideRogue, setup, shutdown } from "./world.mjs";

/** The door becomes a window: sight and light by proximity, 15 ft. */
function windowInsteadOfDoor(world) {
  const wall = world.scenes[0].walls.find((w) => w._id === DOOR);
  Object.assign(wall, { door: 0, ds: 0, sight: 30, light: 30, threshold: { sight: 15, light: 15 } });
}

for (const version of [13, 14]) {
  describe(`Foundry ${version}: A window: clear view as the observer's line of sight is drawn (thresholds)`, () => {
    let env;
    before(async () => {
      env = await setup({ version, world: windowInsteadOfDoor });
      await hideRogue(env);
    });
    after(() => shutdown(env));

    const pairs = () => apiOf(env.gm).getState().hiders[TOKENS.rogue].pairs;

    it("the sentry, 12.5 ft from the window, sees through it: the rogue is in its clear view", () => {
      assert.equal(pairs()[TOKENS.sentry].clearView, true);
    });

    it("the lookout, 18.4 ft from the window along its line, does not", () => {
      assert.equal(pairs()[TOKENS.lookout].clearView, false);
    });

    it("the fighter, on the rogue's side, is not concerned by the window", () => {
      assert.equal(pairs()[TOKENS.fighter].clearView, true);
    });
  });
}
