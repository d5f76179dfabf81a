/**
 * Browser test, real headless Chromium (playwright-core, /usr/bin/chromium):
 * the ways a hider could show in a real world, each drawn by the
 * fake Foundry clients in iframes running the real module and the real wasm,
 * with a screenshot. Each run writes them to tests/artifacts/screenshots/
 * (git-ignored); the reviewed copies committed in
 * tests/foundry/browser/screenshots/ are rewritten only when
 * FURTIVE_UPDATE_SCREENSHOTS=1 is set, so a test run leaves the tree clean:
 * - `vision-off.png`: Token Vision off; Bob's canvas does not draw the rogue;
 * - `two-tokens.png`: Dave owns a sentry that fails and a lookout that succeeds:
 *   he sees the rogue (B2), and not when he controls the sentry alone;
 * - `tremor.png`: Bob's fighter also has tremorsense: still no rogue;
 * - `defend.png`: Bob's Defend dialog does not list the rogue (B1);
 * - `own-token.png`: Alice, controlling a guard who does not perceive her
 *   hiding rogue, still sees the rogue (B2);
 * - `refused.png`: the engine refused Bob's fighter: Bob does not see the rogue (B1);
 * - `linked.png`: the rogue (a linked token) hides, the GM duplicates it and
 *   reveals the copy; a player tab Bob opens afterwards draws the copy and,
 *   from its first paint on (before any frame after its canvas is drawn), never
 *   the original (fault 5, linked actors).
 * The GM hides the rogue through the API (d100 83, dark, torch +27: score 221).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";

import { chromiumSuite, SHOTS } from "./chromium.mjs";
import { ALICE, BOB, CAROL, DAVE, GM, TOKENS } from "../fixtures/world-data.mjs";

const browser = chromiumSuite({ width: 1100, height: 720 });

/** Opens a scenario page; returns the page, its frames by user id and the errors it logged. */
async function open(scenario, userIds) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} ${message.location()?.url ?? ""}`);
  });
  await page.goto(`${browser.site.url}tests/foundry/browser/index.html?scenario=${scenario}`);
  await page.waitForFunction(() => window.furtiveReady === true, null, { timeout: 60_000 });
  const frames = Object.fromEntries(userIds.map((id) => [id, page.frame({ name: id })]));
  return { page, frames, errors };
}

/** The GM hides the rogue: d100 83, dark +50, torch +27 (score 221). */
async function gmHidesRogue(gm) {
  await gm.evaluate(async () => {
    const ctx = window.furtiveCtx;
    ctx.CONFIG.Dice.randomUniform = () => (83 - 0.5) / 100;
    await ctx.game.modules.get("furtive").api.hide("tokenRogue000001", { dialog: false, situation: ["dark"], free: [{ label: "torch", value: 27 }] });
  });
}

const visible = (frame, id) => frame.evaluate((tokenId) => window.furtiveCtx.canvas.tokens.get(tokenId).visible, id);
const waitHidden = (frame, id) => frame.waitForFunction((tokenId) => window.furtiveCtx.canvas.tokens.get(tokenId).visible === false, id, { timeout: 30_000 });
const redraw = (frame) => frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

describe("headless Chromium: every way a hider could show", () => {
  it("Token Vision off: the failed observer's canvas does not draw the rogue", async () => {
    const { page, frames, errors } = await open("vision-off", [GM, BOB, CAROL]);
    assert.equal(await frames[BOB].evaluate(() => window.furtiveCtx.canvas.scene.tokenVision), false);
    assert.equal(await visible(frames[BOB], TOKENS.rogue), true, "before hiding, Bob sees the rogue");
    await gmHidesRogue(frames[GM]);
    await waitHidden(frames[BOB], TOKENS.rogue);
    assert.equal(await visible(frames[CAROL], TOKENS.rogue), true, "Carol's archer succeeded");
    assert.equal(await visible(frames[GM], TOKENS.rogue), true);
    await redraw(frames[BOB]);
    await page.screenshot({ path: path.join(SHOTS, "vision-off.png") });
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("a player with two tokens sees the hider when one of them perceives it, not through the other alone", async () => {
    const { page, frames, errors } = await open("two-tokens", [GM, DAVE]);
    await gmHidesRogue(frames[GM]);
    await frames[DAVE].waitForFunction(() => (window.furtiveCtx.canvas.scene.getFlag("furtive", "hiders") ?? []).length > 0, null, { timeout: 30_000 });
    await redraw(frames[DAVE]);
    assert.equal(await visible(frames[DAVE], TOKENS.rogue), true, "the lookout perceives the rogue");
    await page.screenshot({ path: path.join(SHOTS, "two-tokens.png") });
    await frames[DAVE].evaluate(() => window.furtiveCtx.canvas.tokens.get("tokenSentry00001").control());
    await waitHidden(frames[DAVE], TOKENS.rogue);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("tremorsense does not reveal the hider to an observer who failed", async () => {
    const { page, frames, errors } = await open("tremor", [GM, BOB]);
    const modes = await frames[BOB].evaluate(() => window.furtiveCtx.canvas.tokens.get("tokenFighter0001").document.detectionModes.map((m) => m.id));
    assert.deepEqual(modes, ["feelTremor"]);
    await gmHidesRogue(frames[GM]);
    await waitHidden(frames[BOB], TOKENS.rogue);
    const tremor = await frames[BOB].evaluate(() => {
      const ctx = window.furtiveCtx;
      return ctx.CONFIG.Canvas.detectionModes.feelTremor._canDetect(ctx.canvas.tokens.get("tokenFighter0001").vision, ctx.canvas.tokens.get("tokenRogue000001"));
    });
    assert.equal(tremor, false);
    await redraw(frames[BOB]);
    await page.screenshot({ path: path.join(SHOTS, "tremor.png") });
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("a player always sees their own hider, even controlling a token that does not perceive it", async () => {
    const { page, frames, errors } = await open("own-token", [GM, ALICE]);
    await gmHidesRogue(frames[GM]);
    await frames[ALICE].waitForFunction(() => (window.furtiveCtx.canvas.scene.getFlag("furtive", "hiders") ?? []).length > 0, null, { timeout: 30_000 });
    await frames[ALICE].evaluate(() => window.furtiveCtx.canvas.tokens.get("tokenGuard000001").control());
    await redraw(frames[ALICE]);
    await redraw(frames[ALICE]);
    assert.equal(await frames[ALICE].evaluate(() => window.furtiveCtx.canvas.tokens.controlled.map((t) => t.id).join()), "tokenGuard000001");
    assert.equal(await visible(frames[ALICE], TOKENS.rogue), true);
    await page.screenshot({ path: path.join(SHOTS, "own-token.png") });
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("an observer the engine refused perceives no hider", async () => {
    const { page, frames, errors } = await open("refused", [GM, BOB]);
    await gmHidesRogue(frames[GM]);
    await waitHidden(frames[BOB], TOKENS.rogue);
    const known = await frames[GM].evaluate(() => Boolean(window.furtiveCtx.game.modules.get("furtive").api.getState().creatures.tokenFighter0001));
    assert.equal(known, false, "the engine refused the fighter");
    await redraw(frames[BOB]);
    await page.screenshot({ path: path.join(SHOTS, "refused.png") });
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("the Defend dialog of a player who does not perceive the hider does not list it", async () => {
    const { page, frames, errors } = await open("defend", [GM, BOB]);
    await gmHidesRogue(frames[GM]);
    await waitHidden(frames[BOB], TOKENS.rogue);
    await frames[BOB].evaluate(() => {
      const ctx = window.furtiveCtx;
      const fighter = ctx.canvas.tokens.get("tokenFighter0001");
      ctx.canvas.hud.token.bind(fighter);
      Object.assign(document.getElementById("token-hud").style, { left: `${fighter.center.x * 0.5 + 30}px`, top: `${fighter.center.y * 0.5 - 40}px` });
    });
    await frames[BOB].click('#token-hud [data-furtive-action="defend"]');
    const dialog = frames[BOB].locator("dialog");
    await dialog.waitFor();
    await frames[BOB].evaluate(() => window.furtiveCtx.canvas.hud.token.clear());
    // Show every option of the dialog's lists in the screenshot (a closed <select> shows one).
    await dialog.evaluate((element) => element.querySelectorAll("select").forEach((select) => (select.size = select.options.length)));
    const text = await dialog.textContent();
    assert.match(text, /Archer/);
    assert.doesNotMatch(text, /Rogue/);
    await page.screenshot({ path: path.join(SHOTS, "defend.png") });
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("linked actor: revealing a duplicate leaves the original hidden, and a freshly loaded player tab never draws it", async () => {
    const { page, frames, errors } = await open("linked", [GM]);
    const gm = frames[GM];
    await gmHidesRogue(gm);
    // The GM duplicates the rogue's token (linked: both share the rogue's actor), then reveals the copy.
    const copyId = await gm.evaluate(async () => {
      const scene = window.furtiveCtx.canvas.scene;
      const source = scene.tokens.get("tokenRogue000001").toObject();
      delete source._id;
      const [copy] = await scene.createEmbeddedDocuments("Token", [{ ...source, x: 100, y: 100, name: "Rogue copy" }]);
      return copy.id;
    });
    await gm.evaluate(async (id) => {
      await window.furtiveCtx.game.modules.get("furtive").api.reveal(id);
    }, copyId);
    await page.evaluate(() => window.furtiveServer.idle());
    const gmView = await gm.evaluate(() => {
      const ctx = window.furtiveCtx;
      const api = ctx.game.modules.get("furtive").api;
      return {
        linked: ctx.canvas.scene.tokens.get("tokenRogue000001").actorLink,
        phase: api.getState().hiders.tokenRogue000001?.phase,
        fighterPerceives: api.perceives("tokenFighter0001", "tokenRogue000001"),
        status: ctx.canvas.scene.tokens.get("tokenRogue000001").hasStatusEffect("furtive.hidden"),
      };
    });
    assert.deepEqual(gmView, { linked: true, phase: "hiding", fighterPerceives: false, status: true }, "the engine still has the original hiding from Bob's fighter, status included");

    // Bob loads the game now, in a tab of his own.
    const [tab] = await Promise.all([browser.context.waitForEvent("page"), page.evaluate((url) => void window.open(url), `${browser.site.url}tests/foundry/browser/client.html?user=${BOB}`)]);
    tab.on("pageerror", (error) => errors.push(String(error)));
    tab.on("console", (message) => {
      if (message.type() === "error") errors.push(`${message.text()} ${message.location()?.url ?? ""}`);
    });
    await tab.waitForFunction(() => window.furtiveClientReady === true, null, { timeout: 60_000 });
    await redraw(tab);
    await redraw(tab);
    // The first paint is the canvas as drawn (canvasReady), before any frame applied a
    // perception refresh: the moment before a lookup built at canvasReady would arrive.
    const paints = await tab.evaluate(() => window.furtivePaints);
    assert.ok(paints.length >= 2, `the tab painted its canvas when drawn and at later frames (${paints.length} paints)`);
    assert.ok(paints.every((drawn) => !drawn.includes(TOKENS.rogue)), `no paint drew the original: ${JSON.stringify(paints)}`);
    assert.ok(paints.at(-1).includes(copyId), "the revealed copy is drawn");
    assert.equal(await visible(tab, TOKENS.rogue), false);
    assert.equal(await visible(tab, copyId), true);
    await tab.screenshot({ path: path.join(SHOTS, "linked.png") });
    assert.deepEqual(errors, []);
    await tab.close();
    await page.close();
  });
});
