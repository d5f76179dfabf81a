/**
 * A roll message's flavor that Furtive sets (the Stealth roll, a Defense
 * roll, the Perception and Knockout rolls) reads in each reader's language.
 * Foundry renders a message's `flavor` as it was stored, in the poster's
 * language: a French GM read an English player's "Dodge: Fighter defends
 * Fighter", and a French second GM the English GM's "Stealth: Rogue". The
 * message now carries its flavor in both languages (`flags.furtive.flavor`)
 * and each client shows its own when the message renders
 * (`renderChatMessageHTML`).
 *
 * Secrecy: the flags ride in the roll message itself, to the same users as
 * its flavor (a GM roll is whispered to the GMs).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, GM, TOKENS, apiOf, hideRogue, rollsIn, setup, shutdown, until } from "./world.mjs";

const GM2 = "gmUser0000000002";
const addSecondGM = (world) => world.users.push({ _id: GM2, name: "Second GM", role: 4, flags: {} });

/** The rendered text of a client's chat message (spaces collapsed), or null when not rendered. */
function renderedText(client, message) {
  const item = client.window.document.querySelector(`#chat-log li[data-message-id="${message.id}"]`);
  return item ? item.textContent.replace(/\s+/g, " ").trim() : null;
}

/** The newest roll message a client holds whose flavor (as stored) matches `pattern`. */
function newestRoll(client, pattern) {
  return client.ctx.game.messages.contents.filter((m) => rollsIn(m).length && pattern.test(String(m.flavor ?? ""))).at(-1) ?? null;
}

for (const version of [13, 14]) {
  describe(`v${version}: roll flavors in each reader's language`, () => {
    let env;
    let second;
    before(async () => {
      env = await setup({ ruleset: "percentile", version, users: [GM, GM2, ALICE, BOB], lang: { [GM2]: "fr" }, world: addSecondGM });
      second = env.clients[GM2];
    });
    after(() => shutdown(env));

    it("the English GM's Stealth roll (GM only): the French second GM reads its flavor in French", async () => {
      await hideRogue(env);
      const roll = newestRoll(env.gm, /^Stealth: Rogue$/);
      assert.ok(roll, "the GM's Stealth roll, posted in English");
      await until(() => second.ctx.game.messages.get(roll.id) && renderedText(second, second.ctx.game.messages.get(roll.id)), "the roll on the second GM's client");
      const french = renderedText(second, second.ctx.game.messages.get(roll.id));
      assert.match(french, /Furtivité : Rogue/, french);
      assert.doesNotMatch(french, /Stealth: Rogue/, french);
      assert.match(renderedText(env.gm, roll), /Stealth: Rogue/);
      // The GM roll's flavor, in either language, reaches the GMs only.
      assert.ok(env.server.received(GM2).some((json) => json.includes("Furtivité : Rogue")), "the second GM received the French flavor");
      for (const player of [ALICE, BOB]) {
        for (const json of env.server.received(player)) assert.ok(!json.includes("Furtivité : Rogue") && !json.includes("Stealth: Rogue"), `${player} received the Stealth roll's flavor`);
      }
    });

    it("Bob's Dodge (English player, public roll): the French second GM reads its flavor in French", async () => {
      await apiOf(env.bob).defend(TOKENS.fighter, TOKENS.fighter, TOKENS.rogue, "dodge");
      await env.server.idle();
      const roll = newestRoll(env.bob, /^Dodge: Fighter defends Fighter$/);
      assert.ok(roll, "Bob's Dodge roll, posted in English");
      await until(() => second.ctx.game.messages.get(roll.id) && renderedText(second, second.ctx.game.messages.get(roll.id)), "the roll on the second GM's client");
      const french = renderedText(second, second.ctx.game.messages.get(roll.id));
      assert.match(french, /Esquive : Fighter défend Fighter/, french);
      assert.doesNotMatch(french, /Dodge: Fighter/, french);
      assert.match(renderedText(env.alice, env.alice.ctx.game.messages.get(roll.id)), /Dodge: Fighter defends Fighter/, "an English reader reads English");
    });
  });
}
