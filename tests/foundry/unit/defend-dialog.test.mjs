/**
 * The Defend dialog of the Token HUD (ui/hud.mjs defendFlow): its default
 * choice is one the engine answers, and the one a user means. In Foundry
 * one targets the enemy, so the user's target is the default attacker and
 * the defender defends itself; without a target, the attacker is the first
 * other token. The engine refuses one token as both target and attacker
 * (self_reference, canDefend). Before: the user's target was the default
 * *target* (a user who targeted the enemy defended the enemy), and the
 * attacker the first other token, which could be that same target, so the
 * dialog accepted as it opened was refused.
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

describe("the Defend dialog's default choice", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", lang: { [BOB]: "fr" } });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("Bob targets the Archer: the Fighter defends itself against the Archer", async () => {
    placeable(env.bob, TOKENS.archer).setTarget(true);
    const { chosen, refusals } = await acceptDefendDialog(env, env.bob, TOKENS.fighter);
    placeable(env.bob, TOKENS.archer).setTarget(false);
    assert.deepEqual(chosen, { target: TOKENS.fighter, attacker: TOKENS.archer });
    assert.equal(refusals.length, 0, `no self_reference refusal: ${refusals.map((n) => n.message).join(" | ")}`);
  });

  it("Bob targets nobody: the Fighter defends itself against the first other token", async () => {
    const { chosen, refusals } = await acceptDefendDialog(env, env.bob, TOKENS.fighter);
    assert.equal(chosen.target, TOKENS.fighter);
    assert.notEqual(chosen.attacker, TOKENS.fighter);
    assert.equal(refusals.length, 0, `no self_reference refusal: ${refusals.map((n) => n.message).join(" | ")}`);
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
