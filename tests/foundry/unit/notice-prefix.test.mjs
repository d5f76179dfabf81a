/**
 * Every refusal or notice the module shows starts with the module's name
 * ("Furtive: ", net/requests.mjs `notifyRefusal`), so the user knows which module
 * speaks. Before, a user who clicked a Defend button of an attack card while
 * controlling no token of theirs (and owning no target) read "Select the
 * token that defends first." alone.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { DAVE, GM, TOKENS, apiOf, plain, setup, shutdown, until } from "./world.mjs";

describe("a Defend button clicked with no token to defend", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, DAVE], lang: { [DAVE]: "fr" } });
    // The Rogue (not hiding) attacks the Fighter: a public attack card with Defend buttons.
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.fighter);
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("Dave (French, owns no token) reads the notice with the module's prefix, in French", async () => {
    const card = env.dave.ctx.game.messages.contents.findLast((m) => m.flags?.furtive?.kind === "attack");
    assert.ok(card, "Dave has the attack card");
    const told = env.dave.ctx.notifications.length;
    const button = env.dave.window.document.querySelector(`#chat-log li[data-message-id="${card.id}"] [data-furtive-action="defend"]`);
    assert.ok(button, "the card's first Defend button is rendered");
    button.dispatchEvent(new env.dave.window.MouseEvent("click", { bubbles: true, cancelable: true }));
    await until(() => env.dave.ctx.notifications.length > told, "Dave's notice");
    assert.deepEqual(plain(env.dave.ctx.notifications.slice(told).map((n) => n.message)), ["Furtive: Sélectionnez d'abord le pion qui se défend."]);
  });
});
