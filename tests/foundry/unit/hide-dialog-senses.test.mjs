/**
 * The Hide dialog's precautions (opposed, O13: a precaution counters an
 * enhanced sense) name each sense in the GM's language. The senses are the
 * ids of the `enhancedSenses` setting (a game system's sense ids, such as
 * dnd5e's `blindsight`, or Foundry detection mode ids such as `feelTremor`);
 * a sense without a lang key reads as words ("keenSmell" -> "Keen smell").
 * The boxes' values stay the ids the engine receives. Before, the GM read
 * the raw ids ("blindsight", "feelTremor") whatever their language.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, GM, TOKENS, apiOf, clickDialogButton, plain, setup, shutdown, waitForDialog } from "./world.mjs";

const SENSES = "blindsight=system.attributes.senses.blindsight:targeting; feelTremor=system.attributes.senses.tremorsense; keenSmell=system.attributes.senses.smell";

/** Opens the GM's Hide dialog for the rogue and reads its precaution boxes, then cancels. */
async function precautionBoxes(env) {
  const pending = apiOf(env.gm).hide(TOKENS.rogue);
  const dialog = await waitForDialog(env.gm, env.server);
  const boxes = [...dialog.element.querySelectorAll('input[name="precautions"]')].map((input) => ({
    value: input.value,
    label: input.closest("label").textContent.replace(/\s+/g, " ").trim(),
  }));
  clickDialogButton(env.gm, dialog, "cancel");
  await assert.rejects(pending, (error) => error.code === "cancelled");
  await env.server.idle();
  return plain(boxes);
}

for (const [lang, labels] of [
  ["en", ["Blindsight", "Feel tremor", "Keen smell"]],
  ["fr", ["Vision aveugle", "Sentir les vibrations", "Keen smell"]],
]) {
  describe(`the Hide dialog's precautions for a GM reading ${lang}`, () => {
    let env;
    before(async () => {
      env = await setup({ ruleset: "opposed", users: [GM, ALICE], lang: { [GM]: lang }, settings: { enhancedSenses: SENSES } });
    });
    after(() => shutdown(env));

    it("each sense is named in the GM's language; the values stay the ids", async () => {
      const boxes = await precautionBoxes(env);
      assert.deepEqual(boxes.map((box) => box.value), ["blindsight", "feelTremor", "keenSmell"]);
      assert.deepEqual(boxes.map((box) => box.label), labels);
    });
  });
}
