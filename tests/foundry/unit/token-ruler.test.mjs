/**
 * B1, the token ruler (Foundry v13+): Foundry draws a token's movement for
 * other users by disposition and permission, not by what they see: "Show
 * the ruler only if the token's disposition is friendly or the current user
 * has observer permissions" (foundryvtt/foundryvtt#11874), so a friendly
 * token's path shows to every player, "even if that token is behind a wall,
 * in darkness" (foundryvtt/foundryvtt#13561). A hider's path is drawn only
 * for those who perceive it. The ruler is `CONFIG.Token.rulerClass`
 * (`BaseTokenRuler#isVisible`, copied into `visible` by
 * `Token#_refreshState`); every frame of the fake logs the visible rulers.
 *
 * The rogue is friendly (disposition 1). The GM hides it: Bob's fighter does
 * not perceive it, Carol's archer does (world.mjs). Then Alice moves it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { SCENE, TOKENS, hideRogue, setup, shutdown } from "./world.mjs";

for (const version of [13, 14]) {
  describe(`Foundry ${version}: A hider's movement path is drawn only for those who perceive it (B1)`, () => {
    let env;
    before(async () => {
      env = await setup({ version });
    });
    after(() => shutdown(env));

    it("a friendly token that does not hide: its path shows on every player's canvas (Foundry's rule)", async () => {
      await env.alice.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).update({ x: 200, y: 300 });
      await env.server.idle();
      for (const client of [env.bob, env.carol]) {
        client.ctx.frame();
        assert.ok(client.ctx.canvas.tokens.get(TOKENS.rogue).ruler.visible, client.userId);
      }
    });

    it("the rogue hides and Alice moves it: no frame of Bob's canvas draws its path; Carol's does", async () => {
      await hideRogue(env);
      const from = { bob: env.bob.ctx.frames.length, carol: env.carol.ctx.frames.length };
      await env.alice.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).update({ x: 200, y: 400 });
      await env.server.idle();
      env.bob.ctx.frame();
      env.carol.ctx.frame();
      const bob = env.bob.ctx.frames.slice(from.bob);
      assert.ok(bob.length > 0);
      for (const frame of bob) assert.equal(frame.rulers[TOKENS.rogue], undefined, `Bob's frame drew the path ${JSON.stringify(frame.rulers)}`);
      assert.deepEqual(JSON.parse(JSON.stringify(env.carol.ctx.frames.at(-1).rulers[TOKENS.rogue])), [{ x: 200, y: 300 }, { x: 200, y: 400 }], "Carol sees the path");
    });
  });
}
