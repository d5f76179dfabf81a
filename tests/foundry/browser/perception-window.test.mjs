/**
 * Browser test: headless Chromium (playwright-core, /usr/bin/chromium) runs
 * the fake Foundry clients with the real module and the real wasm. Two
 * tokens hide; the GM opens "Furtive: who perceives whom" from the scene
 * controls, hovers a cell (its decision, numbers and clause), moves with
 * the arrow keys and overrides a pair with Enter; the cell is patched in
 * place and the GM card with its Undo is posted. Screenshot:
 * tests/artifacts/screenshots/perception-window.png (and, with
 * FURTIVE_UPDATE_SCREENSHOTS=1, tests/foundry/browser/screenshots/, the one
 * the README shows).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { it } from "node:test";

import { chromiumSuite, SHOTS } from "./chromium.mjs";
import { BOB, GM, TOKENS } from "../fixtures/world-data.mjs";

const browser = chromiumSuite({ width: 1600, height: 760 });

it("the GM opens who perceives whom, reads a decision, overrides a pair from the keyboard", async () => {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} ${message.location()?.url ?? ""}`);
  });
  await page.goto(`${browser.site.url}tests/foundry/browser/index.html`);
  await page.waitForFunction(() => window.furtiveReady === true, null, { timeout: 60_000 });
  const gm = page.frame({ name: GM });
  const bob = page.frame({ name: BOB });

  // The rogue hides (d100 83, dark, torch +27: score 221); the sentry hides too (d100 20, no modifier).
  await gm.evaluate(async () => {
    const ctx = window.furtiveCtx;
    const api = ctx.game.modules.get("furtive").api;
    ctx.CONFIG.Dice.randomUniform = () => (83 - 0.5) / 100;
    await api.hide("tokenRogue000001", { dialog: false, situation: ["dark"], free: [{ label: "torch", value: 27 }] });
    ctx.CONFIG.Dice.randomUniform = () => (20 - 0.5) / 100;
    await api.hide("tokenSentry00001", { dialog: false });
  });

  // The scene controls' tool (v13: a record of tools with onChange).
  await gm.evaluate(() => {
    const ctx = window.furtiveCtx;
    const controls = { tokens: { name: "tokens", tools: {} } };
    ctx.Hooks.callAll("getSceneControlButtons", controls);
    controls.tokens.tools["furtive-perception"].onChange();
  });
  const windowEl = gm.locator("#furtive-perception-window");
  await windowEl.waitFor();
  await gm.evaluate(() => {
    // The fake's windows have no frame styles: place it over the canvas, as Foundry floats its windows.
    Object.assign(document.getElementById("furtive-perception-window").style, { position: "absolute", left: "4px", top: "4px", width: "520px", background: "#f4f1e8", color: "#191813", border: "1px solid #666", padding: "4px", zIndex: "20", font: "12px sans-serif" });
  });
  assert.equal(await windowEl.locator(".window-header").textContent(), "Furtive: who perceives whom");
  assert.equal(await windowEl.locator("tbody tr").count(), 2, "two hiders");
  const observers = await windowEl.locator("th.furtive-pw-observer").evaluateAll((ths) => ths.map((th) => th.dataset.observer));
  const cell = (hider, observer) => windowEl.locator(`tbody tr[data-hider="${hider}"] td`).nth(observers.indexOf(observer));

  await cell(TOKENS.rogue, TOKENS.fighter).hover();
  await assert.doesNotReject(windowEl.locator(".furtive-pw-decision", { hasText: "score 221 > acuity sum 150: Fighter does not perceive Rogue (P3)" }).waitFor({ timeout: 5000 }));

  // Keyboard: focus the rogue's first cell (Archer), arrow right to the Fighter, Enter.
  await cell(TOKENS.rogue, TOKENS.archer).focus();
  await gm.page().keyboard.press("ArrowRight");
  assert.equal(await gm.evaluate(() => document.activeElement.cellIndex - 1), observers.indexOf(TOKENS.fighter));
  const before = await cell(TOKENS.rogue, TOKENS.fighter).elementHandle();
  await gm.page().keyboard.press("Enter");
  await gm.waitForFunction(([h, column]) => document.querySelector(`tbody tr[data-hider="${h}"]`)?.cells[column + 1]?.classList.contains("furtive-pw-perceived"), [TOKENS.rogue, observers.indexOf(TOKENS.fighter)], { timeout: 30_000 });
  assert.equal(await before.evaluate((node) => node.isConnected && node.classList.contains("furtive-pw-perceived")), true, "the same cell, patched");
  // Bob's fighter now perceives the rogue: his canvas draws it.
  await bob.waitForFunction((id) => window.furtiveCtx.canvas.tokens.get(id).visible === true, TOKENS.rogue, { timeout: 30_000 });
  const card = await gm.evaluate(() => [...document.querySelectorAll("#chat-log li")].some((li) => li.querySelector('[data-furtive-action="undo"]')));
  assert.equal(card, true, "the override's GM card with its Undo");

  await cell(TOKENS.sentry, TOKENS.lookout).hover();
  await page.waitForTimeout(100);
  await windowEl.screenshot({ path: path.join(SHOTS, "perception-window.png") });
  assert.deepEqual(errors, [], "no page errors");
});
