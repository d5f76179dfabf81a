/**
 * Combat start: tokens already hiding keep their state, a
 * Stealth roll made before combat stays in force (O1), and under opposed
 * rules a hiding combatant's held total breaks initiative ties only when the
 * GM enables the world setting `initiativeTieBreaker` (off by default): among
 * equal initiatives, hiders get their rank by held total in ten-thousandths
 * (below dnd5e's Dexterity hundredths), never the total itself (the
 * initiative is public).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { SCENE, TOKENS, answerHideDialog, apiOf, hideRogue, plain, rig, setup, shutdown, waitForDialog } from "./world.mjs";

/** The rogue hides (opposed, Stealth 1d20 + 7 with a d20 of 14: held total 21). */
async function opposedHide(env) {
  rig(env.gm, [[20, 14]]);
  const pending = apiOf(env.gm).hide(TOKENS.rogue);
  answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
  await pending;
  await env.server.idle();
}

/** A combat on the scene with the rogue, the fighter and the sentry at the given initiatives, then started. */
async function startCombat(env, { rogue = 12, fighter = 12, sentry = 5 } = {}) {
  const gm = env.gm.ctx;
  const combat = await gm.Combat.create({ scene: SCENE, active: true, round: 0, turn: 0 });
  await combat.createEmbeddedDocuments("Combatant", [
    { tokenId: TOKENS.rogue, sceneId: SCENE, actorId: "actorRogue000001", initiative: rogue },
    { tokenId: TOKENS.fighter, sceneId: SCENE, actorId: "actorFighter0001", initiative: fighter },
    { tokenId: TOKENS.sentry, sceneId: SCENE, actorId: "actorSentry00001", initiative: sentry },
  ]);
  await env.server.idle();
  await gm.game.combats.get(combat.id).startCombat();
  await env.server.idle();
  return gm.game.combats.get(combat.id);
}

const initiativeOf = (combat, tokenId) => combat.combatants.find((c) => c.tokenId === tokenId).initiative;

describe("Combat start (opposed), tie-breaker off (the default)", () => {
  let env;
  let before_;
  let combat;
  before(async () => {
    env = await setup({ ruleset: "opposed" });
    await opposedHide(env);
    before_ = plain(apiOf(env.gm).getState().hiders[TOKENS.rogue]);
    combat = await startCombat(env);
  });
  after(() => shutdown(env));

  it("the rogue already hiding keeps its state: phase, held total, pairs", () => {
    const state = apiOf(env.gm).getState();
    assert.equal(state.combat.active, true);
    const hider = plain(state.hiders[TOKENS.rogue]);
    assert.equal(hider.phase, "hiding");
    assert.equal(hider.heldTotal, 21, "the Stealth roll made before combat stays in force (O1)");
    assert.deepEqual(hider.pairs, before_.pairs, "every pair as before");
    assert.equal(env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), true);
    assert.equal(apiOf(env.dave).perceives(TOKENS.sentry, TOKENS.rogue), false, "the sentry still does not perceive it");
  });

  it("the initiatives stay as rolled", () => {
    assert.equal(initiativeOf(combat, TOKENS.rogue), 12);
    assert.equal(initiativeOf(combat, TOKENS.fighter), 12);
  });
});

describe("Combat start (opposed), tie-breaker on", () => {
  let env;
  let combat;
  const current = () => env.gm.ctx.game.combats.get(combat.id);
  const setInitiative = async (tokenId, initiative) => {
    await current().combatants.find((c) => c.tokenId === tokenId).update({ initiative });
    await env.server.idle();
  };
  before(async () => {
    env = await setup({ ruleset: "opposed", settings: { initiativeTieBreaker: true } });
    await opposedHide(env);
    // The sentry hides too, behind the wall, with 1d20 + 0 = 9 (held total 9, below the rogue's 21).
    rig(env.gm, [[20, 9]]);
    await apiOf(env.gm).hide(TOKENS.sentry, { dialog: false, moved: true });
    await env.server.idle();
    combat = await startCombat(env);
  });
  after(() => shutdown(env));

  it("the hiding rogue ties the fighter at 12: it goes first, by a rank (0.0001), not its held total", () => {
    assert.equal(initiativeOf(current(), TOKENS.rogue), 12.0001);
    assert.equal(initiativeOf(current(), TOKENS.fighter), 12);
    assert.equal(initiativeOf(current(), TOKENS.sentry), 5, "a hider alone at 5: no tie, no fraction");
    assert.equal(current().combatant.tokenId, TOKENS.rogue, "the rogue acts first among the equal 12s");
    assert.equal(apiOf(env.gm).getState().hiders[TOKENS.rogue].heldTotal, 21, "its state is unchanged");
  });

  it("no tie, no fraction: a new initiative of 15.14 (dnd5e's Dexterity hundredths) stays 15.14", async () => {
    await setInitiative(TOKENS.rogue, 15.14);
    assert.equal(initiativeOf(current(), TOKENS.rogue), 15.14);
  });

  it("the fighter ties it at 15.14: the rogue gets 15.1401, the fighter keeps 15.14", async () => {
    await setInitiative(TOKENS.fighter, 15.14);
    assert.equal(initiativeOf(current(), TOKENS.rogue), 15.1401);
    assert.equal(initiativeOf(current(), TOKENS.fighter), 15.14);
  });

  it("two hiders tied: the higher held total gets the higher rank", async () => {
    assert.equal(apiOf(env.gm).getState().hiders[TOKENS.sentry].heldTotal, 9);
    await setInitiative(TOKENS.sentry, 15.14);
    assert.equal(initiativeOf(current(), TOKENS.rogue), 15.1402, "held total 21: rank 2");
    assert.equal(initiativeOf(current(), TOKENS.sentry), 15.1401, "held total 9: rank 1");
    assert.equal(initiativeOf(current(), TOKENS.fighter), 15.14, "not hiding: no fraction");
  });

  it("a pass that throws is reported to the GM (console and notification) and the next ties are still broken", async () => {
    const gm = env.gm.ctx;
    const get = gm.game.settings.get.bind(gm.game.settings);
    let thrown = false;
    gm.game.settings.get = (namespace, key) => {
      if (namespace === "furtive" && key === "initiativeTieBreaker" && !thrown) {
        thrown = true;
        throw new Error("a broken setting");
      }
      return get(namespace, key);
    };
    const errors = [];
    const consoleError = console.error;
    console.error = (...args) => errors.push(args.map(String).join(" "));
    try {
      await setInitiative(TOKENS.fighter, 18);
      assert.ok(thrown, "the pass threw");
      assert.ok(errors.some((line) => /a broken setting/.test(line)), "the error is on the console");
      assert.ok(gm.notifications.some((n) => n.type === "error" && /initiative/i.test(n.message) && !/FURTIVE\./.test(n.message)), "the GM is told, localized");
    } finally {
      console.error = consoleError;
      gm.game.settings.get = get;
    }
    await setInitiative(TOKENS.rogue, 18);
    assert.equal(initiativeOf(current(), TOKENS.rogue), 18.0001, "the queue is alive: the tie is broken");
    assert.equal(initiativeOf(current(), TOKENS.fighter), 18);
  });
});

describe("Tie-breaker on, percentile: no held total, nothing changes", () => {
  it("the percentile hider's initiative stays as rolled", async () => {
    const env = await setup({ ruleset: "percentile", settings: { initiativeTieBreaker: true } });
    try {
      await hideRogue(env);
      const combat = await startCombat(env);
      assert.equal(initiativeOf(combat, TOKENS.rogue), 12);
      assert.equal(apiOf(env.gm).getState().hiders[TOKENS.rogue].score, 221, "the score rolled before combat stays (P1)");
    } finally {
      shutdown(env);
    }
  });
});
