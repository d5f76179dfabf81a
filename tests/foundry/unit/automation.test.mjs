/**
 * Automation run by the active GM: combat turns drive turnStart/turnEnd/
 * roundEnd/combatEnd (O5 exposure, P6 expiry, P9/O7 one roll on the hider's
 * turn); token moves and door changes roll Perception checks only for
 * observers newly in clear view (O4); deleted and duplicated tokens leave no
 * stale pairs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { DOOR, GM, SCENE, TOKENS, answerHideDialog, apiOf, hideRogue, messagesOf, plain, rig, rollsIn, setup, shutdown, waitForDialog } from "./world.mjs";

/** Perception roll messages the GM's client holds, by observer name in the flavor. */
/** Every Perception roll the GM's client holds (one message may hold several rolls), as `{flavor, whisper}`. */
function perceptionRolls(env) {
  return messagesOf(env.gm).flatMap((m) => rollsIn(m).filter((r) => /1d20 \+ (0|1|2|4|5)$/.test(r.formula)).map((r) => ({ flavor: r.options?.flavor ?? m.flavor ?? "", whisper: m.whisper })));
}

async function opposedHide(env) {
  rig(env.gm, [[20, 14]]);
  const pending = apiOf(env.gm).hide(TOKENS.rogue);
  answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
  await pending;
  await env.server.idle();
}

describe("Combat turns (opposed): turnStart, turnEnd, roundEnd, combatEnd; O4 on a door, O5 exposure", () => {
  let env;
  let combat;
  before(async () => {
    env = await setup({ ruleset: "opposed" });
    const gm = env.gm.ctx;
    combat = await gm.Combat.create({ scene: SCENE, active: true, round: 0, turn: 0 });
    await combat.createEmbeddedDocuments("Combatant", [
      { tokenId: TOKENS.rogue, sceneId: SCENE, actorId: "actorRogue000001", initiative: 20 },
      { tokenId: TOKENS.sentry, sceneId: SCENE, actorId: "actorSentry00001", initiative: 10 },
      { tokenId: TOKENS.lookout, sceneId: SCENE, actorId: "actorLookout0001", initiative: 5 },
    ]);
    await gm.game.combats.get(combat.id).startCombat();
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("combat start: the engine knows the round and whose turn it is (turnStart)", () => {
    const state = apiOf(env.gm).getState();
    assert.equal(state.combat.active, true);
    assert.equal(state.combat.round, 1);
    assert.equal(state.combat.turn, TOKENS.rogue);
  });

  it("the rogue hides on its turn; the east tokens without clear view do not perceive it (O2)", async () => {
    await opposedHide(env);
    assert.equal(apiOf(env.dave).perceives(TOKENS.sentry, TOKENS.rogue), false);
    assert.equal(apiOf(env.dave).perceives(TOKENS.lookout, TOKENS.rogue), false);
  });

  it("a second stealth roll in the same turn is refused (O7)", async () => {
    await assert.rejects(apiOf(env.gm).hide(TOKENS.rogue, { dialog: false }), (error) => error.code === "stealth_roll_already_made");
  });

  it("the door opens: Perception checks only for the observers newly in clear view (O4)", async () => {
    const before = perceptionRolls(env).length;
    rig(env.gm, [[20, 2], [20, 3]]);
    await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
    await env.server.idle();
    const rolls = perceptionRolls(env).slice(before);
    assert.equal(rolls.length, 2, `checks: ${rolls.map((r) => r.flavor).join(" | ")}`);
    const names = rolls.map((r) => r.flavor).join(" ");
    assert.match(names, /Sentry/);
    assert.match(names, /Lookout/);
    for (const roll of rolls) assert.deepEqual(roll.whisper, [GM], "GM-only rolls");
    const pairs = apiOf(env.gm).getState().hiders[TOKENS.rogue].pairs;
    assert.equal(pairs[TOKENS.sentry].perceived, false, "a failed check: still unperceived");
    // State format 2 has no `exposed` field (O5 derives it): a failed check in clear view, nothing pending.
    assert.equal(pairs[TOKENS.sentry].clearView, true, "in clear view");
    assert.equal(pairs[TOKENS.sentry].checkPending, false, "its check was made: exposed until the rogue's turn ends (O5)");
  });

  it("turn change: turnEnd of the rogue makes exposed pairs perceived (O5), then turnStart of the sentry", async () => {
    await env.gm.ctx.game.combats.get(combat.id).nextTurn();
    await env.server.idle();
    const state = apiOf(env.gm).getState();
    assert.equal(state.combat.turn, TOKENS.sentry);
    assert.equal(state.hiders[TOKENS.rogue].pairs[TOKENS.sentry].perceived, true);
    assert.equal(state.hiders[TOKENS.rogue].pairs[TOKENS.sentry].reason, "exposure");
    assert.equal(apiOf(env.dave).perceives(TOKENS.lookout, TOKENS.rogue), true, "the lookup reached the players");
  });

  it("round change: roundEnd then turnStart of the first combatant in round 2", async () => {
    const c = () => env.gm.ctx.game.combats.get(combat.id);
    await c().nextTurn();
    await env.server.idle();
    await c().nextTurn();
    await env.server.idle();
    const state = apiOf(env.gm).getState();
    assert.equal(c().round, 2);
    assert.equal(state.combat.round, 2);
    assert.equal(state.combat.turn, TOKENS.rogue);
    assert.deepEqual(plain(state.combat.rolledThisTurn), [], "a new turn: the rogue may roll again (O7)");
  });

  it("combat end (deleteCombat): the engine leaves combat", async () => {
    await env.gm.ctx.game.combats.get(combat.id).endCombat();
    await env.server.idle();
    const state = apiOf(env.gm).getState();
    assert.equal(state.combat.active, false);
  });
});

describe("Token moves (opposed, O4)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed" });
    await opposedHide(env);
  });
  after(() => shutdown(env));

  it("a move that keeps everyone's view rolls nothing", async () => {
    const before = perceptionRolls(env).length;
    await env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.sentry).update({ y: 300 });
    await env.server.idle();
    assert.equal(perceptionRolls(env).length, before);
  });

  it("the rogue walks through the door into the east: checks for the east observers only", async () => {
    await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
    await env.server.idle();
    const before = perceptionRolls(env).length;
    rig(env.gm, [[20, 20], [20, 20]]);
    // A player moves their own token: the GM's automation reacts to updateToken.
    await env.alice.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).update({ x: 600, y: 800 });
    await env.server.idle();
    const rolls = perceptionRolls(env).slice(before);
    assert.ok(rolls.length <= 2, `at most the two observers that had no clear view: ${rolls.map((r) => r.flavor)}`);
    for (const roll of rolls) assert.doesNotMatch(roll.flavor, /Fighter|Archer|Guard/, "observers who already perceive do not roll");
  });
});

describe("Deleted and duplicated tokens leave no stale pairs (percentile)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  const sceneFlags = (client) => plain(client.ctx.game.scenes.get(SCENE).flags.furtive);

  it("deleting an observer removes its pairs and its lookup entry", async () => {
    await env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.fighter).delete();
    await env.server.idle();
    const state = apiOf(env.gm).getState();
    assert.equal(state.creatures[TOKENS.fighter], undefined);
    assert.equal(state.hiders[TOKENS.rogue].pairs[TOKENS.fighter], undefined);
    assert.ok(!JSON.stringify(sceneFlags(env.bob)).includes(TOKENS.fighter), JSON.stringify(sceneFlags(env.bob)));
  });

  it("duplicating an unlinked hider: the copy carries no hidden status and is not a hider", async () => {
    const gm = env.gm.ctx;
    const guard = gm.game.scenes.get(SCENE).tokens.get(TOKENS.guard);
    rig(env.gm, [[100, 99]]);
    const pending = apiOf(env.gm).hide(guard);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark", "cluttered"] });
    await pending;
    await env.server.idle();
    assert.equal(gm.game.scenes.get(SCENE).tokens.get(TOKENS.guard).hasStatusEffect("furtive.hidden"), true);
    const copy = guard.toObject();
    delete copy._id;
    copy.x = 0;
    const [created] = await gm.game.scenes.get(SCENE).createEmbeddedDocuments("Token", [copy]);
    await env.server.idle();
    const copyId = created.id;
    assert.equal(env.bob.ctx.game.scenes.get(SCENE).tokens.get(copyId).hasStatusEffect("furtive.hidden"), false, "the copy's hidden status is removed");
    const state = apiOf(env.gm).getState();
    assert.ok(state.creatures[copyId], "the copy is a creature");
    assert.equal(state.hiders[copyId], undefined, "not a hider");
    assert.ok(!sceneFlags(env.bob).hiders.includes(copyId));
    assert.equal(env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.guard).hasStatusEffect("furtive.hidden"), true, "the original still hides");
  });

  it("deleting the hider removes it from the lookup and the state", async () => {
    await env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).delete();
    await env.server.idle();
    const state = apiOf(env.gm).getState();
    assert.equal(state.hiders[TOKENS.rogue], undefined);
    assert.ok(!JSON.stringify(sceneFlags(env.carol)).includes(TOKENS.rogue));
    assert.deepEqual(plain(apiOf(env.carol).hiddenFrom(TOKENS.sentry)).includes(TOKENS.rogue), false);
  });
});

describe("A deleted scene leaves no stored state (percentile)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  /** The scene's GM-only record messages (its base and the actions since), as the server holds them. */
  const stored = () => env.server.world.messages.filter((m) => ["state", "stateDelta"].includes(m.flags?.furtive?.kind) && m.flags.furtive.sceneId === SCENE);

  it("the GM's record of the scene, with its hidden numbers, is removed", async () => {
    assert.ok(stored().length, "the hide stored a record for the scene");
    // The Hide's d100 (83) and modifiers are in the record (the action applied to the base).
    assert.match(stored().map((m) => m.flags.furtive.raw).join(""), /"enterStealth".*"roll":83/);
    await env.gm.ctx.game.scenes.get(SCENE).delete();
    await env.server.idle();
    assert.equal(env.gm.ctx.game.scenes.get(SCENE), undefined, "the scene is gone");
    assert.deepEqual(stored(), []);
  });
});
