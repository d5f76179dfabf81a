/**
 * State kept per scene (a record per Scene, its lookup in the Scene's flags)
 * and what outlives it: a linked actor's statuses show on its tokens of every
 * scene (Actor#toggleStatusEffect,
 * https://foundryvtt.com/api/classes/foundry.documents.Actor.html).
 *
 * - A ruleset change starts every scene with a state over, not only the
 *   viewed one. Before, the Cellar (not viewed) kept its lookup (its rogue
 *   hidden from the players' tokens there) and its statuses (the rogue's
 *   actor Hidden, the fighter's Defenseless, on the Keep too).
 * - A deleted scene takes the Defenseless status of its surprised linked
 *   tokens with it, as it did the Hidden status. Before, the fighter's actor
 *   stayed Defenseless on every scene.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { SCENE, TOKENS, apiOf, plain, rig, setup, shutdown } from "./world.mjs";

const CELLAR = "sceneCellar00001";
const cellar = (id) => id.replace("token", "cellr");

/** The world edit that adds the Cellar: the Keep's tokens under other ids (same actors), not active. */
function addCellar(world) {
  const keep = world.scenes[0];
  world.scenes.push({ ...structuredClone(keep), _id: CELLAR, name: "Cellar", active: false, walls: [], tokens: structuredClone(keep.tokens).map((token) => ({ ...token, _id: cellar(token._id) })) });
}

/** On the Cellar (the Keep viewed): its rogue hides (221), then surprises its fighter (P6). */
async function hideAndSurprise(env) {
  rig(env.gm, [[100, 83]]);
  await apiOf(env.gm).hide(cellar(TOKENS.rogue), { dialog: false, situation: ["dark"], free: [{ label: "torch", value: 27 }] });
  await env.server.idle();
  await apiOf(env.gm).attack(cellar(TOKENS.rogue), cellar(TOKENS.fighter), { hitZone: "trunk" });
  await env.server.idle();
  const gm = env.gm.ctx;
  assert.equal(gm.game.actors.get("actorRogue000001").statuses.has("furtive.hidden"), true, "the rogue's actor is Hidden");
  assert.equal(gm.game.actors.get("actorFighter0001").statuses.has("furtive.defenseless"), true, "the fighter's actor is Defenseless");
}

for (const version of [13, 14]) describe(`v${version}: state per scene`, () => {
  let env;
  before(async () => {
    env = await setup({ version, ruleset: "percentile", world: addCellar });
  });
  after(() => shutdown(env));

  it("a ruleset change starts the scene no one views over too: its lookup, state and statuses", async () => {
    await hideAndSurprise(env);
    assert.equal(apiOf(env.bob).perceives(cellar(TOKENS.fighter), cellar(TOKENS.rogue)), false, "Bob: the Cellar's rogue is hidden from its fighter");
    await env.gm.ctx.game.settings.set("furtive", "ruleset", "opposed");
    await env.server.idle();
    const gm = env.gm.ctx;
    const flags = plain(gm.game.scenes.get(CELLAR).flags.furtive ?? {});
    assert.deepEqual(flags.hiders ?? [], [], "the Cellar publishes no hider");
    assert.deepEqual(Object.values(flags.hiddenFrom ?? {}).flat(), [], "the Cellar hides no one from anyone");
    assert.equal(apiOf(env.bob).perceives(cellar(TOKENS.fighter), cellar(TOKENS.rogue)), true, "Bob: the Cellar's rogue is no longer hidden");
    assert.deepEqual(Object.keys(apiOf(env.gm).getState(CELLAR)?.hiders ?? {}), [], "the Cellar's state has no hider");
    assert.equal(gm.game.actors.get("actorRogue000001").statuses.has("furtive.hidden"), false, "the rogue's actor is no longer Hidden");
    assert.equal(gm.game.actors.get("actorFighter0001").statuses.has("furtive.defenseless"), false, "the fighter's actor is no longer Defenseless");
    assert.equal(gm.game.scenes.get(SCENE).tokens.get(TOKENS.fighter).hasStatusEffect("furtive.defenseless"), false, "nor its token on the Keep");
  });

  it("a deleted scene takes the Defenseless status of its surprised linked token with it", async () => {
    await env.gm.ctx.game.settings.set("furtive", "ruleset", "percentile");
    await env.server.idle();
    await apiOf(env.gm).reset(CELLAR);
    await env.server.idle();
    await hideAndSurprise(env);
    await env.gm.ctx.game.scenes.get(CELLAR).delete();
    await env.server.idle();
    const gm = env.gm.ctx;
    assert.equal(gm.game.actors.get("actorRogue000001").statuses.has("furtive.hidden"), false, "the rogue's actor is no longer Hidden");
    assert.equal(gm.game.actors.get("actorFighter0001").statuses.has("furtive.defenseless"), false, "the fighter's actor is no longer Defenseless");
    assert.equal(gm.game.scenes.get(SCENE).tokens.get(TOKENS.fighter).hasStatusEffect("furtive.defenseless"), false, "nor its token on the Keep");
  });
});

describe("a deleted scene, its linked actor surprised on another scene too", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", world: addCellar });
  });
  after(() => shutdown(env));

  it("the actor stays Defenseless while the other scene's surprise lasts", async () => {
    await hideAndSurprise(env);
    // The Keep's rogue hides, then attacks: the fighter's actor is surprised on the Keep too.
    rig(env.gm, [[100, 83]]);
    await apiOf(env.gm).hide(TOKENS.rogue, { dialog: false, situation: ["dark"], free: [{ label: "torch", value: 27 }] });
    await env.server.idle();
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.fighter, { hitZone: "trunk" });
    await env.server.idle();
    assert.ok((apiOf(env.gm).getState(SCENE).surprises ?? []).some((s) => s.target === TOKENS.fighter), "the Keep's fighter is surprised");
    await env.gm.ctx.game.scenes.get(CELLAR).delete();
    await env.server.idle();
    const gm = env.gm.ctx;
    assert.equal(gm.game.actors.get("actorFighter0001").statuses.has("furtive.defenseless"), true, "the fighter's actor stays Defenseless");
    assert.equal(gm.game.actors.get("actorRogue000001").statuses.has("furtive.hidden"), true, "the rogue's actor stays Hidden (it hides on the Keep)");
  });
});
