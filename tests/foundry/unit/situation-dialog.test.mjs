/**
 * The GM's Situation dialog (Token HUD, percentile, ui/hud.mjs situationFlow):
 * it opens with the modifiers in force, so accepting it unchanged changes
 * nothing (P4: only a change of the modifiers asks for a new stealth roll).
 * Before, it showed the situation toggles only: the free GM modifier was
 * dropped (the field opened empty), and `already_perceived` that P9 had
 * added on its own was sent back as the GM's choice. Either way the engine
 * saw new modifiers and asked for a new roll, and the players read that the
 * situation had changed.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { GM, TOKENS, answerHideDialog, apiOf, clickDialogButton, placeable, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

/** The GM clicks Situation on the rogue's HUD and accepts the dialog as it opened (or after `edit(form)`). */
async function acceptSituation(env, edit = () => {}) {
  const client = env.gm;
  const hud = client.ctx.canvas.hud.token;
  hud.bind(placeable(client, TOKENS.rogue));
  const button = hud.element.querySelector('[data-furtive-action="situation"]');
  assert.ok(button, "the GM's HUD offers Situation on a hiding token (percentile)");
  const messages = client.ctx.game.messages.size;
  const dialogs = client.ctx.dialogs.length;
  button.dispatchEvent(new client.window.MouseEvent("click", { bubbles: true }));
  await until(() => client.ctx.dialogs.length > dialogs, "the Situation dialog");
  const dialog = client.ctx.dialogs.at(-1);
  const form = dialog.element.querySelector("form");
  const ticked = [...form.querySelectorAll('input[name="situation"]')].filter((input) => input.checked).map((input) => input.value);
  const free = [...form.querySelectorAll('input[name="freeValue"]')].map((input, index) => ({ label: form.querySelectorAll('input[name="freeLabel"]')[index].value, value: input.value }));
  edit(form);
  clickDialogButton(client, dialog, "ok");
  await until(() => client.ctx.game.messages.size > messages, "the action's card");
  await env.server.idle();
  hud.clear();
  const posted = client.ctx.game.messages.contents.slice(messages).map((m) => m.content.replace(/<[^>]+>/g, " ").replace(/\s+/g, " "));
  return { ticked, free, posted };
}

describe("Situation, accepted as it opened: no change, no new stealth roll (P4)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM], lang: { [GM]: "fr" } });
  });
  after(() => shutdown(env));

  it("the rogue hid with dark and a free +27 'torch': the dialog shows both, and accepting keeps the score without a request", async () => {
    rig(env.gm, [[100, 83]]);
    const pending = apiOf(env.gm).hide(TOKENS.rogue);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
    await pending;
    await env.server.idle();
    const { ticked, free, posted } = await acceptSituation(env);
    assert.deepEqual(ticked, ["dark"]);
    assert.deepEqual(free.filter((m) => Number(m.value) !== 0), [{ label: "torch", value: "27" }], "the free modifier in force is in the dialog");
    const hider = apiOf(env.gm).getState().hiders[TOKENS.rogue];
    assert.equal(hider.pendingModifiers, null, "no new roll is asked for");
    assert.deepEqual(JSON.parse(JSON.stringify(hider.modifiers)), { situation: ["dark"], free: [{ label: "torch", value: 27 }] });
    assert.equal(posted.filter((text) => /refaire un jet/.test(text)).length, 0, `no card says a new roll is needed: ${posted.join(" | ")}`);
  });

  it("the GM unticks dark: the engine asks for a new roll with the free modifier kept", async () => {
    await acceptSituation(env, (form) => {
      form.querySelector('input[name="situation"][value="dark"]').checked = false;
    });
    const hider = apiOf(env.gm).getState().hiders[TOKENS.rogue];
    assert.deepEqual(JSON.parse(JSON.stringify(hider.pendingModifiers)), { situation: [], free: [{ label: "torch", value: 27 }] });
  });

  it("P9 added already perceived on its own: the dialog does not tick it, and accepting asks for no roll", async () => {
    // Reveal, then a low roll (the guard perceives the rogue), then a new roll: P9 adds -100 on its own.
    await apiOf(env.gm).reveal(TOKENS.rogue);
    await env.server.idle();
    for (const d100 of [10, 90]) {
      rig(env.gm, [[100, d100]]);
      const pending = apiOf(env.gm).hide(TOKENS.rogue);
      answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), {});
      await pending;
      await env.server.idle();
    }
    const before = apiOf(env.gm).getState().hiders[TOKENS.rogue];
    assert.equal(before.alreadyPerceivedAdded, true, "P9 added already_perceived");
    const { ticked, posted } = await acceptSituation(env);
    assert.deepEqual(ticked, [], "the GM chose no situation modifier");
    const hider = apiOf(env.gm).getState().hiders[TOKENS.rogue];
    assert.equal(hider.pendingModifiers, null, "no new roll is asked for");
    assert.equal(posted.filter((text) => /refaire un jet/.test(text)).length, 0, `no card says a new roll is needed: ${posted.join(" | ")}`);
  });
});
