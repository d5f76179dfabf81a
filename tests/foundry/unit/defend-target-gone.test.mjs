/**
 * A Defend button of an attack card whose target token was deleted since
 * (TokenDocument#delete, https://foundryvtt.com/api/classes/foundry.documents.TokenDocument.html):
 * the user is told the attacked token is gone. Before, Bob, whose Fighter
 * was the target, read "Select the token that defends first.", though no
 * selection could help. The notice names no token (the target may be one
 * Bob does not perceive).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { BOB, GM, SCENE, TOKENS, apiOf, plain, setup, shutdown, until } from "./world.mjs";

for (const lang of ["en", "fr"]) describe(`${lang}: a Defend button whose target token was deleted`, () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, BOB], lang: { [BOB]: lang } });
    // The Rogue (not hiding) attacks Bob's Fighter: a public attack card with Defend buttons.
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.fighter);
    await env.server.idle();
    await env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.fighter).delete();
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("Bob is told the attacked token is no longer on its scene, and nothing is rolled", async () => {
    const card = env.bob.ctx.game.messages.contents.findLast((m) => m.flags?.furtive?.kind === "attack");
    assert.ok(card, "Bob has the attack card");
    const told = env.bob.ctx.notifications.length;
    const messages = env.bob.ctx.game.messages.size;
    const button = env.bob.window.document.querySelector(`#chat-log li[data-message-id="${card.id}"] [data-furtive-action="defend"]`);
    assert.ok(button, "the card's Defend button is rendered");
    button.dispatchEvent(new env.bob.window.MouseEvent("click", { bubbles: true, cancelable: true }));
    await until(() => env.bob.ctx.notifications.length > told, "Bob's notice");
    await env.server.idle();
    const expected = { en: "Furtive: The attacked token is no longer on its scene.", fr: "Furtive: Le pion attaqué n'est plus sur sa scène." }[lang];
    assert.deepEqual(plain(env.bob.ctx.notifications.slice(told).map((n) => n.message)), [expected]);
    assert.equal(env.bob.ctx.game.messages.size, messages, "no roll, no line");
  });
});
