/**
 * B1, targets: a player's target on a token that becomes unseen to all their
 * tokens is released (`Token#setTarget(false, {releaseOthers: false})`); a
 * player one of whose tokens still perceives it keeps theirs.
 *
 * Bob (fighter) and Carol (archer) target the rogue; the GM hides it: the
 * fighter does not perceive it, the archer does (world.mjs).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { TOKENS, hideRogue, placeable, setup, shutdown } from "./world.mjs";

const targets = (client) => [...client.ctx.game.user.targets].map((t) => t.id);

for (const version of [13, 14]) {
  describe(`Foundry ${version}: A target on a token that becomes unseen is released (B1)`, () => {
    let env;
    before(async () => {
      env = await setup({ version });
      for (const client of [env.bob, env.carol]) placeable(client, TOKENS.rogue).setTarget(true, { releaseOthers: true });
      placeable(env.bob, TOKENS.guard).setTarget(true, { releaseOthers: false });
    });
    after(() => shutdown(env));

    it("before the hide, Bob targets the rogue and the guard, Carol the rogue", () => {
      assert.deepEqual(targets(env.bob).sort(), [TOKENS.guard, TOKENS.rogue].sort());
      assert.deepEqual(targets(env.carol), [TOKENS.rogue]);
    });

    it("the rogue hides: Bob's target on it is released, his other target kept; Carol keeps hers", async () => {
      await hideRogue(env);
      assert.deepEqual(targets(env.bob), [TOKENS.guard]);
      assert.deepEqual(targets(env.carol), [TOKENS.rogue]);
    });
  });
}
