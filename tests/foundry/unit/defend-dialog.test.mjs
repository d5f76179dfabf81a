/**
 * The Defend dialog of the Token HUD (hud.mjs defendFlow): its default
 * choice is one the engine answers. The target is the user's target (else
 * the defender itself); the attacker must be another token, since the
 * engine refuses one token as both target and attacker (self_reference,
 * canDefend). Before, the attacker defaulted to the first other token, so
 * a user who targeted that token (in Foundry one targets the enemy) got
 * the refusal for the dialog as it opened. And when the user's target is
 * the only other token, it is the attacker: the default target is then the
 * defender itself (it was the targeted token as both).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { BOB, GM, SCENE, TOKENS, clickDialogButton, hideRogue, placeable, setup, shutdown } from "./world.mjs";

async function until(check, what) {
  for (let i = 0; i < 2000; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Opens the Defend dialog from `defender`'s HUD on `client`, accepts it as
 * it opens, and returns what the form held and the refusals it got.
 */
async function acceptDefendDialog(env, client, defender) {
  const hud = client.ctx.canvas.hud.token;
  hud.bind(placeable(client, defender));
  const dialogs = client.ctx.dialogs.length;
  hud.element.querySelector('[data-furtive-action="defend"]').dispatchEvent(new client.window.MouseEvent("click", { bubbles: true }));
  await until(() => client.ctx.dialogs.length > dialogs, "the Defend dialog");
  const dialog = client.ctx.dialogs.at(-1);
  const form = dialog.element.querySelector("form");
  const chosen = { target: form.elements.target.value, attacker: form.elements.attacker.value };
  const notifications = client.ctx.notifications.length;
  const messages = client.ctx.game.messages.size;
  clickDialogButton(client, dialog, "ok");
  await until(() => client.ctx.notifications.length > notifications || client.ctx.game.messages.size > messages, "the answer");
  await env.server.idle();
  hud.clear();
  return { chosen, refusals: client.ctx.notifications.slice(notifications).filter((n) => /lui-même|itself/.test(n.message)) };
}

describe("the Defend dialog's default choice is one the engine answers", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", lang: { [BOB]: "fr" } });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("Bob targets the Archer (the first other token): the dialog names the Archer as target, another token as attacker", async () => {
    const client = env.bob;
    placeable(client, TOKENS.archer).setTarget(true);
    const hud = client.ctx.canvas.hud.token;
    hud.bind(placeable(client, TOKENS.fighter));
    const dialogs = client.ctx.dialogs.length;
    hud.element.querySelector('[data-furtive-action="defend"]').dispatchEvent(new client.window.MouseEvent("click", { bubbles: true }));
    await until(() => client.ctx.dialogs.length > dialogs, "the Defend dialog");
    const dialog = client.ctx.dialogs.at(-1);
    const form = dialog.element.querySelector("form");
    const attackers = [...form.elements.attacker.options].map((option) => option.value);
    assert.equal(attackers[0], TOKENS.archer, "the Archer is the first token the dialog offers as attacker");
    assert.equal(form.elements.target.value, TOKENS.archer, "the user's target is the default target");
    assert.notEqual(form.elements.attacker.value, TOKENS.archer, "the default attacker is another token");
    const notifications = client.ctx.notifications.length;
    const messages = client.ctx.game.messages.size;
    clickDialogButton(client, dialog, "ok");
    await until(() => client.ctx.notifications.length > notifications || client.ctx.game.messages.size > messages, "the answer");
    await env.server.idle();
    const refusals = client.ctx.notifications.slice(notifications).filter((n) => /lui-même|itself/.test(n.message));
    assert.equal(refusals.length, 0, `no self_reference refusal: ${refusals.map((n) => n.message).join(" | ")}`);
    placeable(client, TOKENS.archer).setTarget(false);
    hud.clear();
  });
});

describe("the Defend dialog when the user's target is the only other token", () => {
  let env;
  before(async () => {
    // A scene of two tokens: the Fighter defends, the Archer is the only other one.
    env = await setup({
      ruleset: "percentile",
      users: [GM, BOB],
      world: (world) => {
        const scene = world.scenes.find((s) => s._id === SCENE);
        scene.tokens = scene.tokens.filter((t) => t._id === TOKENS.fighter || t._id === TOKENS.archer);
      },
    });
  });
  after(() => shutdown(env));

  it("the targeted token is the default attacker and the defender itself the default target", async () => {
    const client = env.bob;
    placeable(client, TOKENS.archer).setTarget(true);
    const { chosen, refusals } = await acceptDefendDialog(env, client, TOKENS.fighter);
    placeable(client, TOKENS.archer).setTarget(false);
    assert.deepEqual(chosen, { target: TOKENS.fighter, attacker: TOKENS.archer });
    assert.equal(refusals.length, 0, `no self_reference refusal: ${refusals.map((n) => n.message).join(" | ")}`);
  });
});
