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

for (const version of [13, 14]) describe(`v${version}: two scenes`, () => {
  let env;
  before(async () => {
    env = await setup({ version, ruleset: "percentile", world: addCellar });
  });
  after(() => shutdown(env));

  it("perceives and hiddenFrom answer from the tokens' own scene, not the viewed one", async () => {
    const bobHeld = env.bob.ctx.game.messages.size;
    const carolHeld = env.carol.ctx.game.messages.size;
    await hideCellarRogue(env);
    // Secrecy (B1) on a scene no one views: Bob's fighter there does not perceive the Cellar's rogue,
    // so no line of the Hide reaches him; Carol's archer there perceives it: she reads the public line.
    assert.equal(env.bob.ctx.game.messages.size, bobHeld, "Bob received no message of the Hide");
    assert.ok(env.carol.ctx.game.messages.size > carolHeld, "Carol received the public line");
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

  it("an action naming tokens of two scenes is refused quoting the token of the other scene", async () => {
    // Before: "targetId: unknown token `undefined`".
    const api = apiOf(env.gm);
    for (const [what, call] of [
      ["attack", () => api.attack(TOKENS.rogue, cellar(TOKENS.fighter), { hitZone: "trunk" })],
      ["attack list", () => api.attack(TOKENS.rogue, [TOKENS.archer, cellar(TOKENS.fighter)])],
      ["knockout", () => api.knockout(TOKENS.rogue, cellar(TOKENS.fighter))],
      ["canKnockout", () => api.canKnockout(TOKENS.rogue, cellar(TOKENS.fighter))],
    ]) {
      await assert.rejects(call(), (error) => error.code === "unknown_token" && error.message.includes(cellar(TOKENS.fighter)), what);
    }
  });

  it("a linked actor hiding on two scenes keeps its Hidden status until its token on each has revealed", async () => {
    const gm = env.gm.ctx;
    const keepRogue = () => gm.game.scenes.get(SCENE).tokens.get(TOKENS.rogue);
    const cellarRogue = () => gm.game.scenes.get(CELLAR).tokens.get(cellar(TOKENS.rogue));
    // The Cellar's rogue hides (first test); now the Keep's rogue hides too.
    assert.ok(plain(gm.game.scenes.get(CELLAR).flags.furtive.hiders).includes(cellar(TOKENS.rogue)), "the Cellar's rogue hides");
    rig(env.gm, [[100, 83]]);
    const pending = apiOf(env.gm).hide(TOKENS.rogue);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"] });
    await pending;
    await env.server.idle();
    assert.equal(keepRogue().hasStatusEffect("furtive.hidden"), true, "hidden on the Keep");
    // The Keep's rogue reveals: the Cellar's rogue still hides there, and its actor's status must stay.
    await apiOf(env.gm).reveal(TOKENS.rogue);
    await env.server.idle();
    assert.ok(plain(gm.game.scenes.get(CELLAR).flags.furtive.hiders).includes(cellar(TOKENS.rogue)), "the Cellar's rogue still hides");
    // Before: the Keep's reveal took the actor's status off, so the Cellar's hiding rogue lost it.
    assert.equal(cellarRogue().hasStatusEffect("furtive.hidden"), true, "the Cellar's hiding rogue keeps the Hidden status");
    // The Cellar's rogue reveals: no token of the actor hides anywhere, the status goes.
    await apiOf(env.gm).reveal(cellar(TOKENS.rogue));
    await env.server.idle();
    assert.equal(cellarRogue().hasStatusEffect("furtive.hidden"), false, "off once no token of the actor hides");
    assert.equal(keepRogue().hasStatusEffect("furtive.hidden"), false, "off on the Keep too");
  });
});

for (const version of [13, 14]) describe(`v${version}: two scenes: a combat not linked to a scene (Combat#scene null)`, () => {
  let env;
  before(async () => {
    env = await setup({ version, ruleset: "percentile", world: addCellar });
  });
  after(() => shutdown(env));

  it("the turn change reaches the scene of the combatants' tokens, not the viewed one", async () => {
    const gm = env.gm.ctx;
    await hideCellarRogue(env);
    await apiOf(env.gm).attack(cellar(TOKENS.rogue), cellar(TOKENS.fighter), { hitZone: "trunk" });
    await env.server.idle();
    const defenseless = () => (apiOf(env.gm).getState(CELLAR)?.surprises ?? []).some((s) => s.target === cellar(TOKENS.fighter));
    assert.ok(defenseless(), "the Cellar's fighter is defenseless (P6)");
    // The combat is not linked to a scene (Combat#scene null: docs/foundry.md "Documents"); the GM views the Keep.
    const combat = await gm.Combat.create({ scene: null, active: true, round: 0, turn: 0 });
    const cellarScene = gm.game.scenes.get(CELLAR);
    await combat.createEmbeddedDocuments(
      "Combatant",
      [[cellar(TOKENS.rogue), 20], [cellar(TOKENS.fighter), 10]].map(([tokenId, initiative]) => ({ tokenId, actorId: cellarScene.tokens.get(tokenId).actorId, initiative })),
    );
    await gm.game.combats.get(combat.id).startCombat();
    await env.server.idle();
    const notes = gm.notifications.length;
    // The rogue's turn ends: its surprise expires (P6). Before, turnEnd went to the viewed Keep.
    await gm.game.combats.get(combat.id).nextTurn();
    await env.server.idle();
    assert.equal(defenseless(), false, "the surprise expired at the end of the rogue's turn");
    assert.equal(cellarScene.tokens.get(cellar(TOKENS.fighter)).hasStatusEffect("furtive.defenseless"), false, "and its status");
    assert.deepEqual([...gm.notifications.slice(notes)].map((n) => n.message), [], "no refusal told to the GM");
    assert.equal(apiOf(env.gm).getState(SCENE)?.combat?.active ?? false, false, "the Keep's engine saw no turn");
  });
});

for (const version of [13, 14]) describe(`v${version}: two scenes: the scene where a linked actor hides is deleted`, () => {
  let env;
  before(async () => {
    env = await setup({ version, ruleset: "percentile", world: addCellar });
  });
  after(() => shutdown(env));

  it("the actor loses the Hidden status its token on the Keep showed", async () => {
    const gm = env.gm.ctx;
    await hideCellarRogue(env);
    const actor = gm.game.actors.get("actorRogue000001");
    assert.equal(actor.statuses.has("furtive.hidden"), true, "hidden on the Cellar");
    await gm.game.scenes.get(CELLAR).delete();
    await env.server.idle();
    // Before: the actor kept it, so the Keep's rogue (not hiding) showed Hidden and, at each page
    // load, was left undrawn for non-owners until the lookup was built.
    assert.equal(actor.statuses.has("furtive.hidden"), false, "no token of the actor hides anywhere");
    assert.equal(gm.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), false);
  });
});
