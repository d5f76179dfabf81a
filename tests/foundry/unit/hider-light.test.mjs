/**
 * B1, a hider's light: the torch or the darkness a hider carries is not
 * drawn for a player who does not perceive the hider (no glow moves with an
 * unseen hider); players who perceive it, and the GM, see it. The light is
 * Foundry's token light source (`Token#initializeLightSource`, in
 * `canvas.effects.lightSources` / `darknessSources`; every frame of the fake
 * logs which sources exist).
 *
 * The rogue carries a torch (dim 20 ft). The GM hides it: Bob's fighter does
 * not perceive it, Carol's archer does (world.mjs).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { SCENE, TOKENS, hideRogue, setup, shutdown } from "./world.mjs";

const SOURCE = `Token.${TOKENS.rogue}`;

/** The rogue carries a torch. */
function torch(world) {
  world.scenes[0].tokens.find((t) => t._id === TOKENS.rogue).light = { dim: 20, bright: 10 };
}

/** The frames of a client since `from`, each with its light and darkness sources. */
const framesOf = (client, from) => client.ctx.frames.slice(from);
const hides = (frame) => (frame.sceneFlags?.furtive?.hiders ?? []).includes(TOKENS.rogue);

for (const version of [13, 14]) {
  describe(`Foundry ${version}: A hider's light is drawn only for those who perceive it (B1)`, () => {
    let env;
    const start = {};
    before(async () => {
      env = await setup({ version, world: torch });
    });
    after(() => shutdown(env));

    it("before the hide, every player's canvas has the torch", () => {
      for (const client of [env.bob, env.carol]) assert.ok(client.ctx.canvas.effects.lightSources.has(SOURCE), client.userId);
    });

    it("the rogue hides: no frame of Bob's canvas after the hide holds the torch; Carol's and the GM's do", async () => {
      for (const client of [env.bob, env.carol, env.gm]) start[client.userId] = client.ctx.frames.length;
      await hideRogue(env);
      env.bob.ctx.frame();
      const bob = framesOf(env.bob, start[env.bob.userId]).filter(hides);
      assert.ok(bob.length > 0, "Bob's canvas drew frames after the hide");
      for (const frame of bob) assert.ok(!frame.lights.includes(SOURCE), `a frame of Bob's holds the torch: ${frame.lights}`);
      for (const client of [env.carol, env.gm]) {
        client.ctx.frame();
        assert.ok(client.ctx.canvas.effects.lightSources.has(SOURCE), `${client.userId} still sees the torch`);
      }
    });

    it("the rogue moves with its torch: still no light on Bob's canvas, the light follows it on Carol's", async () => {
      const from = env.bob.ctx.frames.length;
      await env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).update({ x: 200, y: 300 });
      await env.server.idle();
      env.bob.ctx.frame();
      for (const frame of framesOf(env.bob, from)) assert.ok(!frame.lights.includes(SOURCE), "no torch on Bob's canvas while the rogue moves");
      assert.equal(env.carol.ctx.canvas.effects.lightSources.get(SOURCE)?.data.y, 350, "Carol's torch moved with the rogue");
    });

    it("a darkness source it carries is not drawn for Bob either", async () => {
      await env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).update({ light: { negative: true } });
      await env.server.idle();
      env.bob.ctx.frame();
      env.carol.ctx.frame();
      assert.ok(env.carol.ctx.canvas.effects.darknessSources.has(SOURCE), "Carol sees the darkness");
      assert.ok(!env.bob.ctx.canvas.effects.darknessSources.has(SOURCE), "Bob does not");
    });

    it("the rogue is revealed: Bob's canvas draws its darkness again", async () => {
      await env.gm.ctx.game.modules.get("furtive").api.reveal(TOKENS.rogue);
      await env.server.idle();
      env.bob.ctx.frame();
      assert.ok(env.bob.ctx.canvas.effects.darknessSources.has(SOURCE));
    });
  });
}
