/**
 * The Token HUD offers Defend only when its dialog has an attacker to name
 * (ui/hud.mjs): another token with an actor that this user may see named (B1).
 * Before, the button was always there, and with no such token a click did
 * nothing at all: no dialog, no message (defendFlow returned early).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { BOB, GM, TOKENS, apiOf, hideRogue, placeable, setup, shutdown } from "./world.mjs";

function offered(client, tokenId) {
  const hud = client.ctx.canvas.hud.token;
  hud.bind(placeable(client, tokenId));
  const actions = [...hud.element.querySelectorAll("[data-furtive-action]")].map((b) => b.dataset.furtiveAction);
  hud.clear();
  return actions;
}

describe("Bob's fighter alone with the rogue hidden from it: no Defend", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "percentile",
      users: [GM, BOB],
      lang: { [BOB]: "fr" },
      world: (w) => {
        w.scenes[0].tokens = w.scenes[0].tokens.filter((t) => t._id === TOKENS.rogue || t._id === TOKENS.fighter);
      },
    });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("the fighter does not perceive the rogue: Bob's HUD has no Defend (no attacker he may see named)", () => {
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false);
    assert.ok(!offered(env.bob, TOKENS.fighter).includes("defend"));
  });

  it("the GM sees every token: the GM's HUD on the fighter has Defend", () => {
    assert.ok(offered(env.gm, TOKENS.fighter).includes("defend"));
  });

  it("the rogue reveals itself: Bob's HUD has Defend again", async () => {
    await apiOf(env.gm).reveal(TOKENS.rogue);
    await env.server.idle();
    assert.ok(offered(env.bob, TOKENS.fighter).includes("defend"));
  });
});

describe("a scene with one token: no Defend", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "opposed",
      users: [GM],
      world: (w) => {
        w.scenes[0].tokens = w.scenes[0].tokens.filter((t) => t._id === TOKENS.guard);
      },
    });
  });
  after(() => shutdown(env));

  it("the GM's HUD on the guard has Hide but no Defend", () => {
    const actions = offered(env.gm, TOKENS.guard);
    assert.ok(actions.includes("hide"));
    assert.ok(!actions.includes("defend"));
  });
});
