/**
 * An actor deleted while a token of it hides (`Actor#delete`; the
 * `deleteActor` hook, https://foundryvtt.com/api/functions/hookEvents.deleteDocument.html).
 * Its tokens stay on their scenes with no actor (`TokenDocument#actor` null,
 * https://foundryvtt.com/api/classes/foundry.documents.TokenDocument.html),
 * so Furtive shows them no HUD and reads no data from them. Before, such a
 * token stayed a hider in the engine's state (hidden from the observers
 * that did not perceive it) with no way left to reveal it: now its creature
 * leaves the state as a deleted token's does, in one transaction per scene.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, GM, SCENE, TOKENS, apiOf, hideRogue, setup, shutdown } from "./world.mjs";

const records = (client) => client.ctx.game.messages.filter((m) => ["state", "stateDelta"].includes(m.getFlag("furtive", "kind")));

for (const version of [13, 14]) describe(`v${version}: the actor of a hiding token is deleted`, () => {
  let env;
  before(async () => {
    env = await setup({ version, users: [GM, ALICE, BOB] });
  });
  after(() => shutdown(env));

  it("the linked Rogue and the unlinked Guard stop hiding; their creatures leave the state; one save each", async () => {
    await hideRogue(env);
    await apiOf(env.gm).hide(TOKENS.guard, { dialog: false, situation: ["dark"] });
    await env.server.idle();
    const gm = env.gm.ctx;
    const api = apiOf(env.gm);
    assert.deepEqual(Object.keys(api.getState().hiders).sort(), [TOKENS.guard, TOKENS.rogue].sort(), "both hide");
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false, "Bob's fighter does not perceive the rogue");
    for (const [actorId, tokenId] of [["actorRogue000001", TOKENS.rogue], ["actorGuard000001", TOKENS.guard]]) {
      const saves = records(env.gm).length;
      await gm.game.actors.get(actorId).delete();
      await env.server.idle();
      const token = gm.game.scenes.get(SCENE).tokens.get(tokenId);
      assert.ok(token, "the token stays on the scene");
      assert.equal(token.actor, null, "with no actor");
      const state = api.getState();
      assert.equal(state.hiders[tokenId], undefined, `${tokenId} no longer hides`);
      assert.equal(state.creatures[tokenId], undefined, `${tokenId}'s creature left the state`);
      assert.equal(records(env.gm).length, saves + 1, "one save");
    }
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), true, "Bob's client: the rogue's token is no longer hidden from the fighter");
  });
});
