/**
 * Secrecy in the module's own UI (B1): no player-facing
 * dialog, list or chat line names a token that none of that player's tokens
 * perceives, or that the GM hid.
 *
 * Opposed world, door closed: the rogue hides in the west (the fighter, west,
 * perceives it: clear view at entry, O2); the guard, moved east, hides from the
 * west (the fighter does not perceive it); a GM-hidden "Scout" stands in the west.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { BOB, GM, TOKENS, answerHideDialog, apiOf, placeable, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

const SCOUT = "tokenScout000001";

async function gmHides(env, tokenId) {
  rig(env.gm, [[20, 14]]);
  const pending = apiOf(env.gm).hide(tokenId);
  answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
  await pending;
  await env.server.idle();
}

/** Opens a HUD action of a token as a client and returns the dialog's text. */
async function dialogText(env, client, tokenId, action) {
  const hud = client.ctx.canvas.hud.token;
  hud.bind(placeable(client, tokenId));
  const button = hud.element.querySelector(`[data-furtive-action="${action}"]`);
  assert.ok(button, `the HUD offers ${action}`);
  const before = client.ctx.dialogs.length;
  button.dispatchEvent(new client.window.MouseEvent("click", { bubbles: true }));
  await until(() => client.ctx.dialogs.length > before, `${action} dialog`);
  const dialog = client.ctx.dialogs.at(-1);
  const text = dialog.element.textContent;
  await dialog.close();
  hud.clear();
  return text;
}

describe("Player-facing dialogs and chat lines name only what the player perceives", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "opposed",
      world: (w) => {
        const scene = w.scenes[0];
        const guard = scene.tokens.find((t) => t._id === TOKENS.guard);
        Object.assign(guard, { x: 800, y: 200 });
        scene.tokens.push({ ...guard, _id: SCOUT, name: "Scout", x: 100, y: 100, hidden: true });
      },
    });
    await gmHides(env, TOKENS.rogue);
    await gmHides(env, TOKENS.guard);
  });
  after(() => shutdown(env));

  it("the setup: the fighter perceives the rogue, not the guard", () => {
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), true);
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.guard), false);
  });

  it("Bob's Point-out dialog lists neither the guard nor the GM-hidden scout", async () => {
    const text = await dialogText(env, env.bob, TOKENS.fighter, "pointOut");
    assert.match(text, /Rogue/);
    assert.doesNotMatch(text, /Guard/);
    assert.doesNotMatch(text, /Scout/);
  });

  it("Bob's Defend dialog lists neither the guard nor the GM-hidden scout", async () => {
    const text = await dialogText(env, env.bob, TOKENS.fighter, "defend");
    assert.match(text, /Archer/);
    assert.doesNotMatch(text, /Guard/);
    assert.doesNotMatch(text, /Scout/);
  });

  it("no chat message Bob's client shows names the guard or the GM-hidden scout", () => {
    // The rogue's public line names every observer that watched it hide, the GM-hidden Scout too
    // ("Scout watches Rogue hide.", O2): it goes only to the users who may see every token it names.
    const line = env.gm.ctx.game.messages.contents.find((m) => m.flags?.furtive?.kind === "log" && !m.flags.furtive.gm && /Scout watches Rogue/.test(m._source.content));
    assert.ok(line, "the rogue's public line");
    assert.ok(!line.whisper.includes(BOB), "not to Bob");
    const shown = env.bob.ctx.game.messages.contents.filter((m) => m.visible).map((m) => m._source.content);
    for (const content of shown) assert.doesNotMatch(content, /Guard|Scout/);
    assert.doesNotMatch(env.bob.window.document.getElementById("chat-log").textContent, /Guard|Scout/);
  });

  it("the GM still sees every line", () => {
    assert.ok(env.gm.ctx.game.messages.contents.some((m) => /Guard/.test(m._source.content)));
  });

  it("an attack by the hidden guard on the fighter: Bob's client shows no card naming the guard", async () => {
    await apiOf(env.gm).attack(TOKENS.guard, TOKENS.fighter, { aimedAtSpace: true }).catch(() => null);
    await env.server.idle();
    const shown = env.bob.ctx.game.messages.contents.filter((m) => m.visible).map((m) => m._source.content);
    for (const content of shown) assert.doesNotMatch(content, /Guard/);
  });
});

export { BOB, GM };
