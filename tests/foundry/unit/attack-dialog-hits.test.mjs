/**
 * The Token HUD's Attack dialog (ui/hud-flows.mjs attackWithDialog), opposed:
 * `hits` (O8, how many hits a noisy attack makes) emptied, or text that is
 * no number (a browser empties a number field holding it), is refused
 * naming the field, and nothing changes, as the same dialog opened from a
 * system attack roll already does (systems/attacks.mjs, d8706a0). Before,
 * the HUD's flow read it as 0 hits: a noisy attack from hiding cost no O8
 * penalty, silently.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, GM, TOKENS, answerHideDialog, apiOf, clickDialogButton, placeable, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

describe("Alice's hiding rogue attacks the guard from the HUD, noisy, with hits emptied", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed", users: [GM, ALICE], lang: { [ALICE]: "fr" } });
    rig(env.gm, [[20, 18]]);
    const pending = apiOf(env.gm).hide(TOKENS.rogue);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
    await pending;
    await env.server.idle();
  });
  after(() => shutdown(env));

  for (const hits of ["", "abc"]) {
    it(`hits ${JSON.stringify(hits)}: Alice is told the field, and nothing changes`, async () => {
      const client = env.alice;
      const before = JSON.stringify(apiOf(env.gm).getState());
      const messages = env.gm.ctx.game.messages.size;
      placeable(client, TOKENS.guard).setTarget(true);
      const hud = client.ctx.canvas.hud.token;
      hud.bind(placeable(client, TOKENS.rogue));
      const dialogs = client.ctx.dialogs.length;
      hud.element.querySelector('[data-furtive-action="attack"]').dispatchEvent(new client.window.MouseEvent("click", { bubbles: true }));
      await until(() => client.ctx.dialogs.length > dialogs, "the Attack dialog");
      const dialog = client.ctx.dialogs.at(-1);
      const form = dialog.element.querySelector("form");
      form.elements.noisy.checked = true;
      form.elements.hits.value = hits;
      const notifications = client.ctx.notifications.length;
      clickDialogButton(client, dialog, "ok");
      await until(() => client.ctx.notifications.length > notifications || env.gm.ctx.game.messages.size > messages, "an answer");
      await env.server.idle();
      const told = [...client.ctx.notifications.slice(notifications)].map((n) => n.message).join(" | ");
      assert.match(told, /Données invalides.*hits/, "refused in French, naming the field");
      assert.equal(JSON.stringify(apiOf(env.gm).getState()), before, "no O8 penalty, no attack");
      assert.equal(env.gm.ctx.game.messages.size, messages, "no card");
      placeable(client, TOKENS.guard).setTarget(false);
      hud.clear();
    });
  }
});
