/**
 * Browser test: headless Chromium (playwright-core, /usr/bin/chromium) opens
 * a page served from 127.0.0.1 holding three fake Foundry clients (GM, Bob,
 * Carol) in iframes, each loading the real module files and the real wasm.
 * The GM clicks the real Hide button of the token HUD and answers the dialog;
 * the rogue disappears from Bob's canvas (his fighter failed) and stays on
 * Carol's (her archer succeeded). On Foundry 13 and 14 (the page's
 * `?version=`). Screenshots: tests/artifacts/foundry-hide.png (13),
 * foundry-hide-v14.png (14).
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { it } from "node:test";

import { chromiumSuite, REPO_ROOT } from "./chromium.mjs";
import { BOB, CAROL, GM, TOKENS } from "../fixtures/world-data.mjs";

const artifactFile = path.join(REPO_ROOT, "tests/artifacts/foundry-hide.png");
const browser = chromiumSuite({ width: 1600, height: 760 });

for (const version of [13, 14]) it(`Foundry ${version}: the GM hides the rogue from the Token HUD: invisible for the failed observer, visible for the one who succeeded`, async () => {
  const artifact = version === 13 ? artifactFile : artifactFile.replace(".png", `-v${version}.png`);
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} ${message.location()?.url ?? ""}`);
  });
  await page.goto(`${browser.site.url}tests/foundry/browser/index.html?version=${version}`);
  await page.waitForFunction(() => window.furtiveReady === true, null, { timeout: 60_000 });
  const gm = page.frame({ name: GM });
  const bob = page.frame({ name: BOB });
  const carol = page.frame({ name: CAROL });

  const visible = (frame, id) => frame.evaluate((tokenId) => window.furtiveCtx.canvas.tokens.get(tokenId).visible, id);
  assert.equal(await visible(bob, TOKENS.rogue), true, "before hiding, Bob sees the rogue");

  // The GM's d100 is 83 (83 + Furtivité 61 + dark 50 + torch 27 = 221).
  await gm.evaluate(() => {
    window.furtiveCtx.CONFIG.Dice.randomUniform = () => (83 - 0.5) / 100;
    const ctx = window.furtiveCtx;
    ctx.canvas.hud.token.bind(ctx.canvas.tokens.get("tokenRogue000001"));
    const hud = document.getElementById("token-hud");
    const center = ctx.canvas.tokens.get("tokenRogue000001").center;
    Object.assign(hud.style, { left: `${center.x * 0.5 + 30}px`, top: `${center.y * 0.5 - 40}px` });
  });
  await gm.click('#token-hud [data-furtive-action="hide"]');
  const dialog = gm.locator("dialog");
  await dialog.waitFor();
  await dialog.locator('input[name="situation"][value="dark"]').check();
  await dialog.locator('input[name="freeLabel"]').fill("torch");
  await dialog.locator('input[name="freeValue"]').fill("27");
  await page.screenshot({ path: artifact.replace(".png", "-dialog.png") }).catch(() => {});
  await dialog.locator('button[data-action="ok"]').click();

  await bob.waitForFunction((id) => window.furtiveCtx.canvas.tokens.get(id).visible === false, TOKENS.rogue, { timeout: 30_000 });
  assert.equal(await visible(bob, TOKENS.rogue), false, "Bob's fighter failed: the rogue is not drawn");
  assert.equal(await visible(carol, TOKENS.rogue), true, "Carol's archer succeeded: the rogue is drawn");
  assert.equal(await visible(gm, TOKENS.rogue), true, "the GM sees everything");
  const detect = (frame, observer) =>
    frame.evaluate(([o, h]) => {
      const ctx = window.furtiveCtx;
      return ctx.CONFIG.Canvas.detectionModes.basicSight._canDetect(ctx.canvas.tokens.get(o).vision, ctx.canvas.tokens.get(h));
    }, [observer, TOKENS.rogue]);
  assert.equal(await detect(bob, TOKENS.fighter), false, "the wrapped detection mode refuses Bob's fighter");
  assert.equal(await detect(carol, TOKENS.archer), true, "and accepts Carol's archer");
  const score = await gm.evaluate(() => window.furtiveCtx.game.modules.get("furtive").api.getState().hiders.tokenRogue000001.score);
  assert.equal(score, 221);

  await gm.evaluate(() => window.furtiveCtx.canvas.hud.token.clear());
  await page.waitForTimeout(150);
  await mkdir(path.dirname(artifact), { recursive: true });
  await page.screenshot({ path: artifact, fullPage: true });
  assert.equal(await gm.evaluate(() => window.furtiveCtx.game.release.generation), version);
  assert.deepEqual(errors, [], "no page errors");
  await page.close();
});
