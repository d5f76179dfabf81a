/**
 * B1, targets, a player with two tokens: Bob owns the fighter (which does not
 * perceive the hidden rogue) and shares the archer (which does). His target
 * on the rogue stays while the archer is his; when the GM takes the archer
 * from him, none of his tokens perceives the rogue and the target is
 * released. Ownership is the actor's (`Actor#ownership`; a token's
 * permission follows its actor, `TokenDocument#testUserPermission`). His
 * combat tracker follows too (the rogue's row).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { BOB, TOKENS, apiOf, hideRogue, placeable, setup, shutdown, startCombat, until } from "./world.mjs";

const ARCHER_ACTOR = "actorArcher00001";
const trackerText = (client) => client.window.document.getElementById("combat").textContent;
const targets = (client) => [...client.ctx.game.user.targets].map((t) => t.id);

for (const version of [13, 14]) {
  describe(`Foundry ${version}: a target kept through a second token is released when that token is no longer the player's`, () => {
    let env;
    before(async () => {
      env = await setup({
        version,
        world: (w) => {
          const archer = w.actors.find((a) => a._id === ARCHER_ACTOR);
          archer.ownership[BOB] = 3;
        },
      });
      placeable(env.bob, TOKENS.rogue).setTarget(true, { releaseOthers: true });
      await hideRogue(env);
      await startCombat(env, [[TOKENS.rogue, 20], [TOKENS.fighter, 10]]);
    });
    after(() => shutdown(env));

    it("the rogue hides: the archer, Bob's too, perceives it; Bob keeps his target", () => {
      assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false);
      assert.equal(apiOf(env.bob).perceives(TOKENS.archer, TOKENS.rogue), true);
      assert.deepEqual(targets(env.bob), [TOKENS.rogue]);
      assert.match(trackerText(env.bob), /Rogue/, "Bob's tracker lists the rogue");
    });

    it("the GM takes the archer from Bob: his target on the rogue is released, its tracker row removed", async () => {
      await env.gm.ctx.game.actors.get(ARCHER_ACTOR).update({ [`ownership.${BOB}`]: 0 });
      await env.server.idle();
      assert.equal(placeable(env.bob, TOKENS.archer).document.testUserPermission(env.bob.ctx.game.user, "OBSERVER"), false, "the archer is no longer Bob's");
      await until(() => !targets(env.bob).includes(TOKENS.rogue), "Bob's target released").catch(() => {});
      assert.deepEqual(targets(env.bob), []);
      assert.doesNotMatch(trackerText(env.bob), /Rogue/, "nor does his tracker list it");
    });
  });
}
