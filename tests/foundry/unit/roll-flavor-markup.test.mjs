/**
 * Roll flavors in each reader's language (ui/chat.mjs decorateChatMessage),
 * two cases the rewrite missed:
 * - A token name with HTML-special characters ("R&D <Rogue>"). A message's
 *   flavor is rendered as HTML (ChatMessageData `flavor`,
 *   https://foundryvtt.com/api/interfaces/foundry.documents.types.ChatMessageData.html):
 *   the module stored the name unescaped, so "<Rogue>" became an element, the
 *   rendered text no longer matched the stored flavor and the French GM read
 *   the English GM's flavor (and the name's markup was rendered).
 * - Each roll's own flavor in the Perception-checks card (`new Roll(formula,
 *   data, {flavor})`, shown by `Roll#render`): it stayed in the poster's
 *   language.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, DOOR, GM, SCENE, TOKENS, hideRogueOpposed, rig, rollsIn, setup, shutdown, until } from "./world.mjs";

const GM2 = "gmUser0000000002";
const NAME = "R&D <Rogue>";
function edit(world) {
  world.users.push({ _id: GM2, name: "Second GM", role: 4, flags: {} });
  world.scenes[0].tokens.find((token) => token._id === TOKENS.rogue).name = NAME;
}

/** A client's rendered chat message, or null. */
const renderedOf = (client, id) => client.window.document.querySelector(`#chat-log li[data-message-id="${id}"]`);
const textOf = (element) => element.textContent.replace(/\s+/g, " ").trim();

for (const version of [13, 14]) {
  describe(`v${version}: roll flavors with markup in a name, and each roll's flavor`, () => {
    let env;
    let second;
    before(async () => {
      env = await setup({ ruleset: "opposed", version, users: [GM, GM2, ALICE], lang: { [GM2]: "fr" }, world: edit });
      second = env.clients[GM2];
      // The Rogue hides behind the closed door; the door opens: the Sentry and the Lookout roll Perception together (O4).
      await hideRogueOpposed(env);
      rig(env.gm, [[20, 2], [20, 3]]);
      await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
      await env.server.idle();
    });
    after(() => shutdown(env));

    it("the Stealth roll of a token named \"R&D <Rogue>\": the French GM reads it in French, the name as text", async () => {
      const roll = env.gm.ctx.game.messages.contents.filter((m) => rollsIn(m).length && m.flags?.furtive?.flavor?.en === `Stealth: ${NAME}`).at(-1);
      assert.ok(roll, "the GM's Stealth roll");
      await until(() => renderedOf(second, roll.id), "the roll on the second GM's client");
      const french = renderedOf(second, roll.id);
      assert.match(textOf(french), /Furtivité : R&D <Rogue>/, textOf(french));
      assert.doesNotMatch(textOf(french), /Stealth/, textOf(french));
      for (const client of [env.gm, second]) assert.equal(renderedOf(client, roll.id).querySelector("rogue"), null, `${client.userId}: the name's markup is not rendered`);
      assert.match(textOf(renderedOf(env.gm, roll.id)), /Stealth: R&D <Rogue>/, "the English GM reads English");
    });

    it("the Perception-checks card: each roll's flavor in French for the French GM", async () => {
      const card = env.gm.ctx.game.messages.contents.filter((m) => m.flags?.furtive?.kind === "perceptionRolls").at(-1);
      assert.ok(rollsIn(card ?? {}).length, "the GM's Perception checks");
      await until(() => renderedOf(second, card.id), "the card on the second GM's client");
      const french = textOf(renderedOf(second, card.id));
      assert.doesNotMatch(french, /looks for/, french);
      for (const observer of ["Sentry", "Lookout"]) assert.match(french, new RegExp(`Perception : ${observer} cherche R&D <Rogue>`), french);
      assert.match(textOf(renderedOf(env.gm, card.id)), /looks for R&D <Rogue>/, "the English GM reads English");
    });
  });
}
