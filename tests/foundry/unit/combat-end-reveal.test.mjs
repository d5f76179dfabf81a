/**
 * P9 at a combat's end: an attack from hiding reveals the attacker "at its
 * next turn end or at combat end" (rules-interpretation.md, P9 Decided),
 * and the engine does so on `combatEnd`. The module keeps the scene's list
 * of hiders (`flags.furtive.hiders`, read by every client: tokens the
 * engine does not know as observers test it) by following each action's
 * events; it counted `combatEnd` among the events that never change a
 * hider's phase, so the list kept the revealed attacker until some later
 * event re-read it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, GM, SCENE, TOKENS, apiOf, hideRogue, plain, setup, shutdown, startCombat } from "./world.mjs";

describe("P9: a combat that ends after an attack from hiding", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE, BOB] });
    const gm = env.gm.ctx;
    const combat = await startCombat(env);
    await hideRogue(env);
    // The rogue attacks the Fighter on its own turn; the combat ends before that turn does.
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.fighter);
    await env.server.idle();
    await gm.game.combats.get(combat.id).endCombat();
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("the engine revealed the rogue, and the scene's published list of hiders no longer holds it", () => {
    const state = apiOf(env.gm).getState();
    assert.notEqual(state.hiders[TOKENS.rogue]?.phase, "hiding", "the engine revealed it (P9)");
    const published = env.server.world.scenes.find((s) => s._id === SCENE).flags.furtive?.hiders ?? [];
    assert.deepEqual(plain(published), [], "the published list of hiders");
    const seenBy = env.bob.ctx.game.scenes.get(SCENE).getFlag("furtive", "hiders") ?? [];
    assert.deepEqual(plain(seenBy), [], "as Bob's client reads it");
  });
});
