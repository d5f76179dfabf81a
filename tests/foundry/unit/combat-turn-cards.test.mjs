/**
 * A combat turn change that changes nothing anyone sees posts no GM card.
 *
 * The engine records every turn (`turnStart`, `turnEnd`, `roundEnd`: whose
 * turn, the round; P9 and O7 read them), so the module saves each turn
 * change. Before, it also posted a GM card for each (title, no line, an
 * Undo button): in a fight with nobody hiding, one card per turn. Now a
 * turn change posts its card only when it has something to say (a change
 * of perception or status, a log line, a check to roll, a new stealth roll
 * to offer). Its record is saved all the same.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { TOKENS, apiOf, hideRogue, messagesOf, setup, shutdown, startCombat } from "./world.mjs";

/** The GM cards (`flags.furtive.gm`) and the stored records the GM's client holds. */
function furtiveMessages(env) {
  const messages = messagesOf(env.gm).filter((m) => m.flags?.furtive);
  return {
    cards: messages.filter((m) => m.flags.furtive.gm === true).length,
    records: messages.filter((m) => m.flags.furtive.kind === "state" || m.flags.furtive.kind === "stateDelta").length,
  };
}

describe("combat turn changes and GM cards", () => {
  let env;
  let combat;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
    const { id } = await startCombat(env);
    combat = () => env.gm.ctx.game.combats.get(id);
  });
  after(() => shutdown(env));

  it("nobody hiding: turn and round changes are saved and post no GM card", async () => {
    const before = furtiveMessages(env);
    const revision = apiOf(env.gm).getState().revision;
    await combat().nextTurn();
    await env.server.idle();
    await combat().nextTurn();
    await env.server.idle();
    const state = apiOf(env.gm).getState();
    assert.equal(state.combat.round, 2, "a round went by");
    assert.equal(state.combat.turn, TOKENS.rogue);
    assert.ok(state.revision > revision, "the turns were applied");
    const now = furtiveMessages(env);
    assert.equal(now.cards, before.cards, "no GM card for a turn change with nothing to say");
    assert.ok(now.records > before.records, "the turns were saved");
  });

  it("a hider's turn end that reveals it (P9, after an attack) still posts its card", async () => {
    // Round 2, the Rogue's turn: it hides and attacks the Fighter; P9 reveals it at the end of its turn.
    await hideRogue(env);
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.fighter);
    await env.server.idle();
    assert.ok(apiOf(env.gm).hiddenFrom(TOKENS.sentry).includes(TOKENS.rogue), "the Sentry does not perceive the Rogue");
    const before = furtiveMessages(env).cards;
    await combat().nextTurn();
    await env.server.idle();
    assert.equal(apiOf(env.gm).hiddenFrom(TOKENS.sentry).includes(TOKENS.rogue), false, "P9: revealed to everyone at the end of its turn");
    assert.equal(furtiveMessages(env).cards, before + 1, "the turn change that revealed it has its card");
  });
});
