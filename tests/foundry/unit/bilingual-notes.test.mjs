/**
 * The module's own notes on a GM card (an offered Perception check,
 * gm/perception-offers.mjs; the attack notes of systems/attacks.mjs) hold both
 * languages from the lang files, whatever the poster's language: a French GM
 * posts a card whose English text an English GM reads (B3).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { settle } from "./system-world.mjs";
import { DAVE, DOOR, GM, SCENE, TOKENS, answerHideDialog, apiOf, messagesOf, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

describe("a French GM offers the sentry's Perception check to Dave: the GM card's note is in English and in French", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "opposed",
      users: [GM, DAVE],
      lang: { [GM]: "fr" },
      settings: { systemOfferChecks: true },
      world: (w) => {
        w.system = { id: "worldbuilding", version: "0.8.2" };
      },
    });
    rig(env.gm, [[20, 14]]);
    const pending = apiOf(env.gm).hide(TOKENS.rogue);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
    await pending;
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("the door opens: the offer's note reads English in `en` and French in `fr`", async () => {
    await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
    const offerNote = () =>
      messagesOf(env.gm)
        .filter((m) => m.flags?.furtive?.gm)
        .flatMap((m) => m.flags.furtive.entries ?? [])
        .find((e) => /Sentry/.test(e.en ?? "") && /Dave/.test(e.en ?? ""));
    await until(offerNote, "the offer's note on the GM card");
    await settle(env);
    const note = offerNote();
    assert.equal(note.en, "Sentry's Perception check is offered to Dave; it stays pending until they roll.");
    assert.equal(note.fr, "Le test de Perception de Sentry est proposé à Dave ; il reste en attente jusqu'à leur jet.");
  });
});
