/**
 * Roll totals reach the engine as integers rounded down (the rules round
 * down: `Math.floor`, so -20.5 is -21, not -20), and a total that is not a
 * finite number never reaches the engine: the check is skipped and the GM is
 * told. Both the GM's own Perception checks (gm/checks.mjs) and a sheet
 * Perception roll (systems/sheet-rolls.mjs).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { settle } from "./system-world.mjs";
import { DOOR, SCENE, TOKENS, answerHideDialog, apiOf, plain, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

/** The rogue hides (opposed, Stealth 1d20 + 7 with a d20 of 14: held total 21). */
async function opposedHide(env) {
  rig(env.gm, [[20, 14]]);
  const pending = apiOf(env.gm).hide(TOKENS.rogue);
  answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
  await pending;
  await env.server.idle();
}

const pairsOf = (env) => plain(apiOf(env.gm).getState()).hiders[TOKENS.rogue].pairs;

async function openDoor(env) {
  await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
  await env.server.idle();
}

describe("The GM's Perception checks: a fractional negative total is rounded down", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed", settings: { perceptionFormula: "(1d20 - 42) / 2" } });
    await opposedHide(env);
  });
  after(() => shutdown(env));

  it("the door opens: d20 1 gives (1 - 42) / 2 = -20.5, stored as -21", async () => {
    rig(env.gm, [[20, 1], [20, 1]]);
    await openDoor(env);
    assert.equal(pairsOf(env)[TOKENS.sentry].perceptionTotal, -21);
    assert.equal(pairsOf(env)[TOKENS.lookout].perceptionTotal, -21);
  });
});

describe("The GM's Perception checks: a total that is not finite is skipped and the GM told", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed" });
    await opposedHide(env);
  });
  after(() => shutdown(env));

  it("the door opens while the Roll class gives NaN totals: no total reaches the engine, the GM is warned for each observer", async () => {
    // A Roll that evaluates to no number (Foundry's own Roll refuses one; a substituted Roll class may not):
    // the fake's Roll#total is patched on the GM's client for this door opening only.
    const proto = env.gm.ctx.Roll.prototype;
    const original = Object.getOwnPropertyDescriptor(proto, "total");
    Object.defineProperty(proto, "total", { configurable: true, get: () => Number.NaN });
    try {
      await openDoor(env);
    } finally {
      Object.defineProperty(proto, "total", original);
    }
    for (const id of [TOKENS.sentry, TOKENS.lookout]) {
      assert.equal(pairsOf(env)[id].perceptionTotal, null, `${id}: nothing stored`);
      assert.equal(pairsOf(env)[id].perceived, false);
    }
    const warnings = env.gm.ctx.notifications.filter((n) => n.type === "warning" && /no numeric total/.test(n.message)).map((n) => n.message);
    assert.ok(warnings.some((m) => /Sentry/.test(m)) && warnings.some((m) => /Lookout/.test(m)), `warnings: ${warnings.join(" | ")}`);
    const refusals = env.gm.ctx.game.messages.contents.filter((m) => m.flags?.furtive?.gm).flatMap((m) => m.flags.furtive.entries ?? []).filter((e) => e.clause === "");
    assert.equal(refusals.length, 0, `nothing refused by the engine: ${refusals.map((e) => e.en).join(" | ")}`);
  });
});

describe("A sheet Perception roll with a fractional negative total is rounded down", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "opposed",
      settings: { autoPerception: false, systemPerceptionMatch: "flags.mysystem.perception=true" },
      world: (w) => {
        w.system = { id: "worldbuilding", version: "0.8.2" };
      },
    });
    await opposedHide(env);
    await openDoor(env);
  });
  after(() => shutdown(env));

  it("Dave's sentry answers its pending check with 1d20 - 21.5 (d20 1): -20.5 is stored as -21", async () => {
    assert.equal(pairsOf(env)[TOKENS.sentry].checkPending, true);
    const token = env.dave.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.sentry);
    rig(env.dave, [[20, 1]]);
    const roll = new env.dave.ctx.Roll("1d20 - 21.5", token.actor.getRollData());
    await roll.evaluate();
    await roll.toMessage({ speaker: env.dave.ctx.ChatMessage.getSpeaker({ token }), flags: { mysystem: { perception: true } } });
    await until(() => pairsOf(env)[TOKENS.sentry].perceptionTotal !== null, "the check is answered");
    await settle(env);
    assert.equal(pairsOf(env)[TOKENS.sentry].perceptionTotal, -21);
  });
});

describe("The GM's Hide roll with a fractional negative total is rounded down", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed", settings: { stealthFormula: "(1d20 - 42) / 2" } });
  });
  after(() => shutdown(env));

  it("the rogue hides with d20 1: (1 - 42) / 2 = -20.5 is held as -21 (gm/actions.mjs: floor, not trunc)", async () => {
    rig(env.gm, [[20, 1]]);
    const pending = apiOf(env.gm).hide(TOKENS.rogue);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
    await pending;
    await env.server.idle();
    assert.equal(plain(apiOf(env.gm).getState()).hiders[TOKENS.rogue].heldTotal, -21);
  });
});
