/**
 * An action's Undo still works after saves that posted no card.
 *
 * A combat turn change that says nothing (no change, no line, no check) is
 * saved without a GM card, and so is bookkeeping (an actor's data sent to
 * the engine again). Before, such a save became the scene's last action, so
 * the Undo button of the action before it answered `not_last_action`: a GM
 * who hid a token by mistake and then clicked "next turn" could not take
 * the Hide back, and had no card to undo the turn from either.
 *
 * Now the Undo of an action is refused only when an action with a card came
 * after it. The cardless saves after it are applied again on the state
 * before the action, so the engine keeps following Foundry's combat tracker
 * (the turn stays the current one), in one record write.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { SCENE, TOKENS, apiOf, clickCard, hideRogue, messagesOf, plain, rig, setup, shutdown, startCombat } from "./world.mjs";

/** The GM cards of actions (`flags.furtive.gm`, kind `log`) on the GM's client. */
const gmCards = (client) => client.ctx.game.messages.filter((m) => m.getFlag("furtive", "kind") === "log" && m.getFlag("furtive", "gm") === true);

/** The record messages (base and deltas) of the scene on the GM's client. */
const records = (client) => messagesOf(client).filter((m) => ["state", "stateDelta"].includes(m.flags?.furtive?.kind) && m.flags.furtive.sceneId === SCENE);

describe("Undo after a quiet combat turn change (percentile)", () => {
  let env;
  let combat;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
    const { id } = await startCombat(env);
    combat = () => env.gm.ctx.game.combats.get(id);
  });
  after(() => shutdown(env));

  it("the Hide's card undoes the Hide after a turn change that posted no card; the turn stays Foundry's", async () => {
    const stateBefore = plain(apiOf(env.gm).getState());
    await hideRogue(env);
    const hideCard = gmCards(env.gm).at(-1);
    assert.ok(hideCard.getFlag("furtive", "actionId"), "the Hide's card can undo it");
    const rogue = () => env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue);
    assert.equal(rogue().hasStatusEffect("furtive.hidden"), true);

    const cards = gmCards(env.gm).length;
    await combat().nextTurn();
    await env.server.idle();
    assert.equal(gmCards(env.gm).length, cards, "the turn change posted no card");
    assert.equal(apiOf(env.gm).getState().combat.turn, TOKENS.fighter, "the engine follows the tracker");

    let recordWrites = 0;
    const onRecord = (m) => ["state", "stateDelta"].includes(m.getFlag("furtive", "kind")) && m.getFlag("furtive", "sceneId") === SCENE && (recordWrites += 1);
    env.gm.ctx.Hooks.on("createChatMessage", onRecord);
    const warnings = env.gm.ctx.notifications.length;
    clickCard(env.gm, hideCard, "undo");
    await env.server.idle();
    env.gm.ctx.Hooks.off?.("createChatMessage", onRecord);
    assert.deepEqual([...env.gm.ctx.notifications.slice(warnings).map((n) => n.message)], [], "no refusal");
    const state = plain(apiOf(env.gm).getState());
    assert.equal(state.hiders[TOKENS.rogue], undefined, "the Hide is undone");
    assert.equal(rogue().hasStatusEffect("furtive.hidden"), false, "the hidden status is off again");
    assert.equal(state.combat.turn, TOKENS.fighter, "the turn change after it is kept: the engine still follows the tracker");
    assert.equal(state.combat.round, stateBefore.combat.round, "same round");
    assert.equal(recordWrites, 1, "one record write");
    assert.equal(records(env.gm).length, 1, "the record is one base");
    assert.equal(apiOf(env.gm).hiddenFrom(TOKENS.sentry).includes(TOKENS.rogue), false, "the published lookup hides the Rogue from nobody");
    assert.equal(messagesOf(env.gm).filter((m) => m.flags?.furtive?.kind === "undone").length, 1, "the GM is told");
  });

  it("an action with a card after it still makes an older card's Undo refused", async () => {
    // Round 2, the Rogue's turn again: it hides, then attacks the Fighter (an action with its card).
    await combat().nextTurn();
    await env.server.idle();
    rig(env.gm, [[100, 83]]);
    await hideRogue(env);
    const hideCard = gmCards(env.gm).at(-1);
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.fighter);
    await env.server.idle();
    assert.notEqual(gmCards(env.gm).at(-1).id, hideCard.id, "the attack has its own card");
    const warnings = env.gm.ctx.notifications.length;
    clickCard(env.gm, hideCard, "undo");
    await env.server.idle();
    // The sentence once: the refusal's detail is that same sentence, so it is not repeated in parentheses.
    assert.deepEqual([...env.gm.ctx.notifications.slice(warnings).map((n) => n.message)], ["Furtive: Only the scene's last Furtive action can be undone."], "told that only the last action can be undone");
    assert.ok(apiOf(env.gm).getState().hiders[TOKENS.rogue], "nothing was undone");
  });
});
