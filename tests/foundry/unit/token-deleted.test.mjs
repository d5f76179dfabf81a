/**
 * A token deleted while Furtive has business with it: hidden, the target of a
 * surprise. A linked token's statuses are its actor's (Actor#toggleStatusEffect,
 * https://foundryvtt.com/api/classes/foundry.documents.Actor.html), so they
 * outlive the token: the actor's next token, on any scene, would carry them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { GM, ALICE, BOB, SCENE, TOKENS, apiOf, hideRogue, setup, shutdown } from "./world.mjs";

for (const version of [13, 14]) describe(`v${version}: a hidden linked token is deleted`, () => {
  let env;
  before(async () => {
    env = await setup({ version, users: [GM, ALICE, BOB] });
  });
  after(() => shutdown(env));

  it("its actor loses the Hidden status, so its next token does not show it", async () => {
    await hideRogue(env);
    const gm = env.gm.ctx;
    const scene = gm.game.scenes.get(SCENE);
    const actor = gm.game.actors.get("actorRogue000001");
    assert.equal(actor.statuses.has("furtive.hidden"), true, "hidden");
    const source = scene.tokens.get(TOKENS.rogue).toObject();
    await scene.tokens.get(TOKENS.rogue).delete();
    await env.server.idle();
    assert.deepEqual(Object.keys(apiOf(env.gm).getState().hiders), [], "the engine forgot the hider");
    // Before: the actor kept furtive.hidden, and the rogue dragged back in showed it while not hiding.
    assert.equal(actor.statuses.has("furtive.hidden"), false, "the actor's Hidden status went with its hiding token");
    delete source._id;
    const [again] = await scene.createEmbeddedDocuments("Token", [{ ...source }]);
    await env.server.idle();
    assert.equal(scene.tokens.get(again.id).hasStatusEffect("furtive.hidden"), false, "the new token is not shown hidden");
  });

  it("a duplicate of the actor still hiding keeps it", async () => {
    const gm = env.gm.ctx;
    const scene = gm.game.scenes.get(SCENE);
    const actor = gm.game.actors.get("actorRogue000001");
    const rogue = scene.tokens.find((token) => token.actorId === "actorRogue000001");
    // Two tokens of the rogue hide; one is deleted.
    const source = rogue.toObject();
    delete source._id;
    const [copy] = await scene.createEmbeddedDocuments("Token", [{ ...source, x: 100, y: 100, name: "Rogue copy" }]);
    await env.server.idle();
    for (const id of [rogue.id, copy.id]) {
      const options = { dialog: false, situation: ["dark"] };
      await apiOf(env.gm).hide(id, options);
      await env.server.idle();
    }
    assert.deepEqual(Object.keys(apiOf(env.gm).getState().hiders).sort(), [rogue.id, copy.id].sort(), "both hide");
    await scene.tokens.get(copy.id).delete();
    await env.server.idle();
    assert.equal(actor.statuses.has("furtive.hidden"), true, "the other token of the actor still hides");
  });
});

for (const version of [13, 14]) describe(`v${version}: a linked target of a surprise is deleted`, () => {
  let env;
  before(async () => {
    env = await setup({ version, users: [GM, ALICE, BOB] });
  });
  after(() => shutdown(env));

  it("its actor is no longer Defenseless", async () => {
    await hideRogue(env);
    const gm = env.gm.ctx;
    const scene = gm.game.scenes.get(SCENE);
    const fighter = gm.game.actors.get("actorFighter0001");
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.fighter, { hitZone: "trunk" });
    await env.server.idle();
    assert.equal(fighter.statuses.has("furtive.defenseless"), true, "the surprised fighter is defenseless");
    await scene.tokens.get(TOKENS.fighter).delete();
    await env.server.idle();
    assert.equal(fighter.statuses.has("furtive.defenseless"), false, "its actor's Defenseless status went with the token");
  });
});
