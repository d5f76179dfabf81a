/**
 * Two scenes: the Keep (viewed by every client) and the Cellar, a copy of
 * its tokens under other ids (the PCs' linked actors have a token on each,
 * as when a party left tokens on an earlier scene). The GM acts on the
 * Cellar through the API while the canvas shows the Keep.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { SCENE, TOKENS, answerHideDialog, apiOf, plain, rig, setup, shutdown, waitForDialog } from "./world.mjs";

export const CELLAR = "sceneCellar00001";
/** The Cellar's copy of a Keep token id. */
export const cellar = (id) => id.replace("token", "cellr");

/** The world edit that adds the Cellar: the Keep's tokens (same actors), no walls, not active. */
export function addCellar(world) {
  const keep = world.scenes[0];
  world.scenes.push({
    ...structuredClone(keep),
    _id: CELLAR,
    name: "Cellar",
    active: false,
    walls: [],
    tokens: structuredClone(keep.tokens).map((token) => ({ ...token, _id: cellar(token._id) })),
  });
}

/** Hides the Cellar's rogue as the GM (the Keep viewed): dark + torch +27, d100 83 -> 221. */
async function hideCellarRogue(env) {
  rig(env.gm, [[100, 83]]);
  const pending = apiOf(env.gm).hide(cellar(TOKENS.rogue));
  answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
  await pending;
  await env.server.idle();
}

describe("two scenes", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", world: addCellar });
  });
  after(() => shutdown(env));

  it("perceives and hiddenFrom answer from the tokens' own scene, not the viewed one", async () => {
    await hideCellarRogue(env);
    const cellarScene = env.gm.ctx.game.scenes.get(CELLAR);
    assert.deepEqual(plain(cellarScene.flags.furtive.hiddenFrom[cellar(TOKENS.fighter)]), [cellar(TOKENS.rogue)], "the Cellar's lookup: its fighter does not perceive its rogue");
    for (const client of [env.gm, env.bob]) {
      const api = apiOf(client);
      // Before: true and [] (the Keep's lookup, where no one hides).
      assert.equal(api.perceives(cellar(TOKENS.fighter), cellar(TOKENS.rogue)), false, `${client.userId}: perceives on the Cellar`);
      assert.equal(api.perceives(cellar(TOKENS.archer), cellar(TOKENS.rogue)), true, `${client.userId}: the archer perceives`);
      assert.deepEqual(plain(api.hiddenFrom(cellar(TOKENS.fighter))), [cellar(TOKENS.rogue)], `${client.userId}: hiddenFrom on the Cellar`);
      // The Keep is untouched: no one hides there.
      assert.equal(api.perceives(TOKENS.fighter, TOKENS.rogue), true, `${client.userId}: the Keep's fighter perceives the Keep's rogue`);
      assert.deepEqual(plain(api.hiddenFrom(TOKENS.fighter)), [], `${client.userId}: hiddenFrom on the Keep`);
      // Two tokens of different scenes: no answer, the argument is named.
      assert.throws(() => api.perceives(TOKENS.fighter, cellar(TOKENS.rogue)), (error) => error.code === "invalid_input" && error.message.includes("hider"), "tokens of two scenes");
      // An unknown observer: refused like perceives (before: hiddenFrom answered []).
      assert.throws(() => api.hiddenFrom("tokenGhost000001"), (error) => error.code === "unknown_token" && error.message.includes("observer"), "hiddenFrom(unknown)");
    }
    assert.equal(env.gm.ctx.game.scenes.get(SCENE).flags.furtive?.hiders?.length ?? 0, 0, "the Keep has no hider");
  });
});
