/**
 * B2 with shared vision: a player sees what the tokens they observe perceive.
 * Foundry makes every token a player observes (OBSERVER permission or
 * better) a vision source while they control none (Shared Vision's README:
 * "you can do this in Foundry by giving every player observer permissions,
 * but in that case tokens will only share vision if the player has no tokens
 * selected", https://github.com/CDeenen/SharedVision), so the module's guard
 * counts those tokens too.
 *
 * Bob owns the fighter (does not perceive the rogue) and observes Carol's
 * archer (perceives it: acuities 260 against a score of 221).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { BOB, TOKENS, apiOf, hideRogue, placeable, setup, shutdown, visibleOn } from "./world.mjs";

/** Bob observes the archer. */
function bobObservesArcher(world) {
  const archer = world.actors.find((a) => a._id === "actorArcher00001");
  archer.ownership = { ...archer.ownership, [BOB]: 2 };
}

for (const version of [13, 14]) {
  describe(`Foundry ${version}: Observer permission: a token the player observes counts (B2)`, () => {
    let env;
    before(async () => {
      env = await setup({ version, world: bobObservesArcher });
      await hideRogue(env);
    });
    after(() => shutdown(env));

    it("the engine: the archer perceives the rogue, the fighter does not", () => {
      assert.equal(apiOf(env.bob).perceives(TOKENS.archer, TOKENS.rogue), true);
      assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false);
    });

    it("Bob, controlling no token, sees the rogue through the archer he observes", () => {
      assert.equal(visibleOn(env.bob, TOKENS.rogue), true);
    });

    it("Bob controlling his fighter alone sees through the fighter only: no rogue", () => {
      placeable(env.bob, TOKENS.fighter).control();
      assert.equal(visibleOn(env.bob, TOKENS.rogue), false);
      placeable(env.bob, TOKENS.fighter).release();
      assert.equal(visibleOn(env.bob, TOKENS.rogue), true);
    });
  });
}
