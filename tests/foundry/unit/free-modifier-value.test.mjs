/**
 * A free modifier row of the Hide dialog and of the Situation dialog
 * (percentile, P2) with a label but no number value (emptied, or text that
 * is no number: a browser empties a number field holding it) is refused
 * naming the field, in the GM's language, and nothing is sent, as the
 * Attack dialog's `hits` and the Knockout dialog's `rawDamage` are. A row
 * left entirely empty is still ignored. Before, the labelled row was
 * dropped silently: the GM who typed "torch" hid the rogue without it.
 * When the Hide is a player's request, the GM who typed the row is told,
 * and the player reads the refusal too (invalid input, naming the field, as
 * every bad input reads for every user), not that the GM cancelled. The GM's
 * label is not sent: free text the GM typed may name a token the player
 * does not perceive (secrecy, docs/foundry.md "Threat model").
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, GM, TOKENS, answerHideDialog, apiOf, clickDialogButton, placeable, plain, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

/** Fills the last free modifier row of an open Hide/Situation dialog's form. */
function fillLastRow(form, label, value) {
  const labels = form.querySelectorAll('input[name="freeLabel"]');
  const values = form.querySelectorAll('input[name="freeValue"]');
  labels[labels.length - 1].value = label;
  values[values.length - 1].value = value;
}

/** Clicks a HUD button of the rogue on the GM's client and waits for its dialog. */
async function openFromHud(client, action) {
  const hud = client.ctx.canvas.hud.token;
  hud.bind(placeable(client, TOKENS.rogue));
  const dialogs = client.ctx.dialogs.length;
  hud.element.querySelector(`[data-furtive-action="${action}"]`).dispatchEvent(new client.window.MouseEvent("click", { bubbles: true }));
  await until(() => client.ctx.dialogs.length > dialogs, `the ${action} dialog`);
  return client.ctx.dialogs.at(-1);
}

/** Accepts a dialog the GM is expected to be told about; returns what they were told and whether a chat message was posted. */
async function acceptRefused(env, dialog) {
  const client = env.gm;
  const notifications = client.ctx.notifications.length;
  const messages = client.ctx.game.messages.size;
  clickDialogButton(client, dialog, "ok");
  await until(() => client.ctx.notifications.length > notifications, "the GM's notification");
  await env.server.idle();
  client.ctx.canvas.hud.token.clear();
  return { told: client.ctx.notifications.slice(notifications).map((n) => n.message).join(" | "), posted: client.ctx.game.messages.size > messages };
}

describe("a French GM's free modifier with a label and no number value", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE], lang: { [GM]: "fr" } });
  });
  after(() => shutdown(env));

  for (const value of ["", "abc"]) {
    it(`Hide dialog, "torch" = ${JSON.stringify(value)}: refused naming the field, nothing sent`, async () => {
      const before = JSON.stringify(apiOf(env.gm).getState());
      rig(env.gm, [[100, 83]]);
      const dialog = await openFromHud(env.gm, "hide");
      fillLastRow(dialog.element.querySelector("form"), "torch", value);
      const { told, posted } = await acceptRefused(env, dialog);
      assert.match(told, /^Furtive: Données invalides\. \(freeValue: .*"torch"/, `told: ${told}`);
      assert.equal(posted, false, "no roll, no card");
      assert.equal(JSON.stringify(apiOf(env.gm).getState()), before, "the rogue does not hide");
    });
  }

  it("Hide dialog, a row left entirely empty is ignored: the rogue hides", async () => {
    rig(env.gm, [[100, 83]]);
    const notifications = env.gm.ctx.notifications.length;
    const pending = apiOf(env.gm).hide(TOKENS.rogue);
    const dialog = await waitForDialog(env.gm, env.server);
    fillLastRow(dialog.element.querySelector("form"), "  ", "");
    clickDialogButton(env.gm, dialog, "ok");
    await pending;
    await env.server.idle();
    assert.deepEqual(plain(env.gm.ctx.notifications.slice(notifications).map((n) => n.message)), [], "no refusal");
    const hider = apiOf(env.gm).getState().hiders[TOKENS.rogue];
    assert.equal(hider.phase, "hiding");
    assert.deepEqual(plain(hider.modifiers.free), []);
  });

  for (const value of ["", "abc"]) {
    it(`Situation dialog, "torch" = ${JSON.stringify(value)}: refused naming the field, no new roll asked for`, async () => {
      const before = JSON.stringify(apiOf(env.gm).getState());
      const dialog = await openFromHud(env.gm, "situation");
      fillLastRow(dialog.element.querySelector("form"), "torch", value);
      const { told, posted } = await acceptRefused(env, dialog);
      assert.match(told, /^Furtive: Données invalides\. \(freeValue: .*"torch"/, `told: ${told}`);
      assert.equal(posted, false);
      assert.equal(JSON.stringify(apiOf(env.gm).getState()), before, "no pending modifiers");
    });
  }
});

for (const version of [13, 14]) describe(`v${version} (queries): Alice asks to hide; the English GM's dialog has a labelled row without a value`, () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", version, users: [GM, ALICE], lang: { [ALICE]: "fr" } });
  });
  after(() => shutdown(env));

  it("the GM is told naming the field; Alice reads the refusal naming the field, without the GM's label", async () => {
    const before = JSON.stringify(apiOf(env.gm).getState());
    const notifications = env.gm.ctx.notifications.length;
    const pending = apiOf(env.alice).hide(TOKENS.rogue);
    const dialog = await waitForDialog(env.gm, env.server);
    fillLastRow(dialog.element.querySelector("form"), "torch", "");
    clickDialogButton(env.gm, dialog, "ok");
    let refusal;
    await assert.rejects(pending, (error) => {
      refusal = { code: error.code, text: error.localized() };
      return true;
    });
    await env.server.idle();
    const told = env.gm.ctx.notifications.slice(notifications).map((n) => n.message).join(" | ");
    assert.match(told, /^Furtive: Invalid data\. \(freeValue: .*"torch"/, `the GM: ${told}`);
    assert.equal(refusal.code, "invalid_input");
    assert.match(refusal.text, /^Données invalides\. \(freeValue: /, refusal.text);
    assert.doesNotMatch(refusal.text, /torch|annulé/, refusal.text);
    assert.equal(JSON.stringify(apiOf(env.gm).getState()), before, "the rogue does not hide");
  });

  it("the same request answered with a whole row hides the rogue with it", async () => {
    rig(env.gm, [[100, 83]]);
    const pending = apiOf(env.alice).hide(TOKENS.rogue);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { freeLabel: "torch", freeValue: 27 });
    await pending;
    await env.server.idle();
    assert.deepEqual(plain(apiOf(env.gm).getState().hiders[TOKENS.rogue].modifiers.free), [{ label: "torch", value: 27 }]);
  });
});
