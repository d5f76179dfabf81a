/**
 * Browser test, real headless Chromium (playwright-core, /usr/bin/chromium):
 * what Foundry shows around a hider, beyond the token itself (B1), drawn by
 * the fake Foundry clients in iframes running the real module and wasm,
 * on Foundry 13 and 14 (the page's `?version=`), with a screenshot each
 * (`leaks.png`, `leaks-v14.png`, written to tests/artifacts/screenshots/;
 * FURTIVE_UPDATE_SCREENSHOTS=1 refreshes the reviewed copy in
 * browser/screenshots/).
 *
 * The rogue carries a torch. The GM hides it (d100 83, dark, torch +27:
 * score 221; Bob's fighter fails, Carol's archer succeeds), starts a combat
 * (rogue 20, fighter 10, archer 5: the rogue's turn) and moves the rogue. Bob's client: no
 * tracker row, no glow, no movement path of the rogue in any paint after
 * the hide; Carol's: all three.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";

import { chromiumSuite, SHOTS } from "./chromium.mjs";
import { BOB, CAROL, GM, TOKENS } from "../fixtures/world-data.mjs";

const browser = chromiumSuite({ width: 1100, height: 720 });

const redraw = (frame) => frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
const TORCH = `Token.${TOKENS.rogue}`;

describe("headless Chromium: the tracker row, the light and the path of a hider", () => {
  for (const version of [13, 14]) it(`Foundry ${version}: Bob, who does not perceive the hiding rogue, gets none of them; Carol, who does, gets all three`, async () => {
    const page = await browser.context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`${message.text()} ${message.location()?.url ?? ""}`);
    });
    await page.goto(`${browser.site.url}tests/foundry/browser/index.html?scenario=leaks&version=${version}`);
    await page.waitForFunction(() => window.furtiveReady === true, null, { timeout: 60_000 });
    const frames = { [GM]: page.frame({ name: GM }), [BOB]: page.frame({ name: BOB }), [CAROL]: page.frame({ name: CAROL }) };

    const rows = (frame) => frame.evaluate(() => [...document.querySelectorAll("#combat [data-combatant-id]")].map((row) => row.textContent));
    await redraw(frames[BOB]);
    assert.ok((await frames[BOB].evaluate(() => window.furtiveGlows.at(-1))).includes(TORCH), "before hiding, Bob sees the torch");

    // The GM hides the rogue (before the combat: a roll in combat would carry P9's -100).
    const paintsBefore = await frames[BOB].evaluate(() => window.furtiveGlows.length);
    await frames[GM].evaluate(async () => {
      const ctx = window.furtiveCtx;
      ctx.CONFIG.Dice.randomUniform = () => (83 - 0.5) / 100;
      await ctx.game.modules.get("furtive").api.hide("tokenRogue000001", { dialog: false, situation: ["dark"], free: [{ label: "torch", value: 27 }] });
    });
    await frames[BOB].waitForFunction(() => window.furtiveCtx.canvas.tokens.get("tokenRogue000001").visible === false, null, { timeout: 30_000 });
    // A combat: the rogue acts first.
    await frames[GM].evaluate(async () => {
      const ctx = window.furtiveCtx;
      const scene = ctx.canvas.scene;
      const combat = await ctx.Combat.create({ scene: scene.id, active: true, round: 0, turn: 0 });
      const entries = [["tokenRogue000001", 20], ["tokenFighter0001", 10], ["tokenArcher00001", 5]];
      await combat.createEmbeddedDocuments("Combatant", entries.map(([tokenId, initiative]) => ({ tokenId, sceneId: scene.id, actorId: scene.tokens.get(tokenId).actorId, initiative })));
      await ctx.game.combats.get(combat.id).startCombat();
    });
    await frames[CAROL].waitForFunction(() => document.querySelectorAll("#combat [data-combatant-id]").length === 3, null, { timeout: 30_000 });
    // It moves, its torch with it.
    await frames[GM].evaluate(async () => {
      await window.furtiveCtx.canvas.scene.tokens.get("tokenRogue000001").update({ x: 200, y: 250 });
    });
    await page.evaluate(() => window.furtiveServer.idle());
    for (const id of [BOB, CAROL, GM]) {
      await redraw(frames[id]);
      await redraw(frames[id]);
    }

    const bob = await frames[BOB].evaluate((from) => ({ glows: window.furtiveGlows.slice(from), rulers: window.furtiveRulers.slice(from), paints: window.furtivePaints.slice(from) }), paintsBefore);
    const hiddenPaints = bob.paints.map((drawn, index) => ({ drawn, index })).filter(({ drawn }) => !drawn.includes(TOKENS.rogue));
    assert.ok(hiddenPaints.length > 0, "Bob's canvas painted after the hide");
    for (const { index } of hiddenPaints) {
      assert.ok(!bob.glows[index].includes(TORCH), `a paint of Bob's without the rogue drew its torch: ${JSON.stringify(bob.glows[index])}`);
      assert.ok(!bob.rulers[index].includes(TOKENS.rogue), "a paint of Bob's drew the rogue's path");
    }
    assert.ok(!bob.paints.at(-1).includes(TOKENS.rogue), "Bob's last paint has no rogue");
    assert.ok(!(await rows(frames[BOB])).some((text) => text.includes("Rogue")), "no tracker row for the rogue on Bob's client");
    assert.ok(!(await frames[BOB].evaluate(() => Boolean(document.querySelector("#combat li.active")))), "no current-turn highlight on Bob's client");

    const carol = await frames[CAROL].evaluate(() => ({ glows: window.furtiveGlows.at(-1), rulers: window.furtiveRulers.at(-1), paint: window.furtivePaints.at(-1) }));
    assert.ok(carol.paint.includes(TOKENS.rogue) && carol.glows.includes(TORCH) && carol.rulers.includes(TOKENS.rogue), `Carol sees the rogue, its torch and its path: ${JSON.stringify(carol)}`);
    assert.ok((await rows(frames[CAROL])).some((text) => text.includes("Rogue")), "Carol's tracker lists the rogue");

    assert.equal(await frames[BOB].evaluate(() => window.furtiveCtx.game.release.generation), version);
    await page.screenshot({ path: path.join(SHOTS, version === 13 ? "leaks.png" : `leaks-v${version}.png`) });
    assert.deepEqual(errors, []);
    await page.close();
  });
});
