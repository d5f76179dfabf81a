/**
 * The Point out dialog of the Token HUD (opposed, O3; ui/hud.mjs pointOutFlow):
 * offered only when its default choice is one the engine answers. The
 * engine counts two creatures as allies when they are on the same side and
 * that side is neither empty nor "neutral" (furtive-core `Creature::is_ally_of`).
 * Before, the dialog pre-ticked every token of the observer's side, neutral
 * ones included, so a neutral observer's dialog accepted as it opened was
 * refused (`not_allied`); and an observer with no ally at all was offered a
 * Point out that named nobody.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { GM, TOKENS, answerHideDialog, apiOf, clickDialogButton, placeable, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

/** A world with the rogue and some of the others, the given dispositions; the GM hides the rogue (every observer west of the door sees it hide, O2). */
async function start(keep, dispositions) {
  const env = await setup({
    ruleset: "opposed",
    users: [GM],
    lang: { [GM]: "fr" },
    world: (w) => {
      w.scenes[0].tokens = w.scenes[0].tokens.filter((t) => keep.some((name) => TOKENS[name] === t._id));
      for (const t of w.scenes[0].tokens) for (const [name, disposition] of Object.entries(dispositions)) if (TOKENS[name] === t._id) t.disposition = disposition;
    },
  });
  rig(env.gm, [[20, 15]]);
  const pending = apiOf(env.gm).hide(TOKENS.rogue);
  answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
  await pending;
  await env.server.idle();
  return env;
}

/** The GM's HUD on a token: the Point out button, or null. */
function pointOutButton(env, tokenId) {
  const hud = env.gm.ctx.canvas.hud.token;
  hud.bind(placeable(env.gm, tokenId));
  return hud.element.querySelector('[data-furtive-action="pointOut"]');
}

describe("a neutral guard that saw the rogue hide, beside a neutral sentry: no Point out (neutral has no ally, O3)", () => {
  let env;
  before(async () => {
    env = await start(["rogue", "guard", "sentry"], { guard: 0, sentry: 0 });
  });
  after(() => shutdown(env));

  it("the guard perceives the rogue, and its HUD offers no Point out", () => {
    assert.equal(apiOf(env.gm).perceives(TOKENS.guard, TOKENS.rogue), true, "the guard saw the rogue hide (O2)");
    assert.equal(pointOutButton(env, TOKENS.guard), null, "a Point out whose default names the sentry would be refused (not_allied)");
    env.gm.ctx.canvas.hud.token.clear();
  });
});

describe("a hostile guard alone with the rogue: no Point out (nobody to tell)", () => {
  let env;
  before(async () => {
    env = await start(["rogue", "guard"], {});
  });
  after(() => shutdown(env));

  it("the guard perceives the rogue, and its HUD offers no Point out", () => {
    assert.equal(apiOf(env.gm).perceives(TOKENS.guard, TOKENS.rogue), true);
    assert.equal(pointOutButton(env, TOKENS.guard), null);
    env.gm.ctx.canvas.hud.token.clear();
  });
});

describe("a hostile guard and a hostile sentry behind the closed door: Point out accepted as it opened tells the sentry", () => {
  let env;
  before(async () => {
    env = await start(["rogue", "guard", "sentry", "fighter"], { sentry: -1 });
  });
  after(() => shutdown(env));

  it("the dialog ticks the sentry (not the fighter), and accepting it makes the sentry perceive the rogue", async () => {
    assert.equal(apiOf(env.gm).perceives(TOKENS.sentry, TOKENS.rogue), false, "the sentry has no clear view of the rogue");
    const button = pointOutButton(env, TOKENS.guard);
    assert.ok(button, "the guard's HUD offers Point out");
    const dialogs = env.gm.ctx.dialogs.length;
    button.dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true }));
    await until(() => env.gm.ctx.dialogs.length > dialogs, "the Point out dialog");
    const dialog = env.gm.ctx.dialogs.at(-1);
    const ticked = [...dialog.element.querySelectorAll('input[name="allies"]')].filter((input) => input.checked).map((input) => input.value);
    assert.deepEqual(ticked, [TOKENS.sentry]);
    const notifications = env.gm.ctx.notifications.length;
    clickDialogButton(env.gm, dialog, "ok");
    await until(() => apiOf(env.gm).perceives(TOKENS.sentry, TOKENS.rogue), "the sentry perceives the rogue");
    await env.server.idle();
    assert.deepEqual([...env.gm.ctx.notifications.slice(notifications)].map((n) => n.message), [], "no refusal");
    env.gm.ctx.canvas.hud.token.clear();
  });
});
