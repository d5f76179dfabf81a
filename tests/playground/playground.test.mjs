// The playground page (playground/) in real headless Chromium: a run on
// Nort Gate by night played with the mouse and the controls, the engine's
// answers read from the page, a screenshot per step compared loosely with
// the reviewed copy (tests/playground/screenshots/; FURTIVE_UPDATE_SCREENSHOTS=1
// rewrites them), bad input, the URL replaying a run, and an exported
// scenario that the demo plays.
//
// Run: bash scripts/test-playground.sh (prepares the wasm and the fixtures).
//
// The default run (playground/run.js DEFAULT_RUN): Nort Gate at night
// (global light off, darkness 1); the SRD spy at (800, 1850) in front of
// the gate, whose west door (kv3XzwiLDsuIK61t) is shut; the gate guard
// (Perception +2, no darkvision) inside at (1450, 1850); a goblin lookout
// on the gallery at 16 ft; a goblin sentry (darkvision 60 ft) in the keep at
// (1300, 1300); an unlit lantern (bright 30 ft, dim 60 ft) at (1000, 1960).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";

import { REPO, clickOnCanvas, dragOnCanvas, launch, screenshot, settle } from "./browser.mjs";

const GATE_DOOR = "kv3XzwiLDsuIK61t";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** What the page's table answers for a pair: clear view, the engine's decision, the drawn cell. */
function pair(page, observer, hider) {
  return page.evaluate(([o, h]) => {
    const table = window.playground.table;
    const view = table.view(o, h);
    const decision = table.perceives(o, h);
    const cell = document.querySelector(`#matrix td[data-observer="${o}"][data-hider="${h}"]`);
    return {
      seen: view.clearView ? "clear" : view.sightLine ? "concealed" : "blocked",
      perceives: decision.allowed,
      clause: decision.clause,
      en: decision.en,
      fr: decision.fr,
      cell: cell ? { perceives: cell.dataset.perceives, clearView: cell.dataset.clearView, text: cell.textContent } : null,
    };
  }, [observer, hider]);
}

/**
 * The colours the canvas shows in a 9 x 9 pixel square around a scene point,
 * as [r, g, b] of each pixel.
 */
function pixelsAround(page, x, y) {
  return page.evaluate(([x, y]) => {
    const canvas = document.getElementById("map");
    const v = window.playground.viewport;
    const cx = Math.round((x - v.x) * v.scale);
    const cy = Math.round((y - v.y) * v.scale);
    const data = canvas.getContext("2d").getImageData(cx - 4, cy - 4, 9, 9).data;
    const out = [];
    for (let i = 0; i < data.length; i += 4) out.push([data[i], data[i + 1], data[i + 2]]);
    return out;
  }, [x, y]);
}

/** Whether one of `pixels` is `colour` (#rrggbb), give or take 40 a channel. */
function shows(pixels, colour) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  return pixels.some(([pr, pg, pb]) => Math.abs(pr - r) <= 40 && Math.abs(pg - g) <= 40 && Math.abs(pb - b) <= 40);
}

/** The engine's explanations of the run's last action, in English. */
function lastLog(page) {
  return page.evaluate(() => {
    const table = window.playground.table;
    const last = Math.max(...table.log.map((e) => e.action));
    return table.log.filter((e) => e.action === last).map((e) => `[${e.clause}/${e.audience}] ${e.en}`);
  });
}

/** The Perception total of the engine's O4 check for `observer`, read from its GM explanation. */
function perceptionTotal(lines, name) {
  const line = lines.find((l) => l.startsWith("[O4/gm] Perception") && l.includes(`: ${name} `));
  assert.ok(line, `an O4 Perception check by ${name} in ${JSON.stringify(lines)}`);
  return Number(/Perception (-?\d+)/.exec(line)[1]);
}

describe("the playground in headless Chromium", () => {
  it("plays a run: hide, drag an observer into view, open a door, light a lantern, switch ruleset and language", async () => {
    const page = await browser.open();
    assert.deepEqual(await page.evaluate(() => [...window.playground.table.tokens.keys()]), ["spy", "gate-guard", "lookout", "sentry"]);
    assert.equal(await page.locator("#matrix").textContent(), "Nobody hides yet. Select a token and press Hide.");
    await screenshot(page, "01-loaded.png");

    // 1. Hide the spy with a typed total: click it, type 12, press Hide.
    await clickOnCanvas(page, await page.evaluate(() => window.playground.tokenOnCanvas("spy")));
    assert.equal(await page.evaluate(() => window.playground.selected), "spy");
    await page.fill("#hide-roll", "12");
    await page.click("#hide");
    await settle(page);
    assert.deepEqual(await lastLog(page), [
      "[O1/gm] Spy enters stealth: Stealth check 12 is held (O1).",
      "[O1/public] Spy tries to hide.",
      "[O2/gm] Gate guard has no clear view of Spy at entry: starts unperceiving (O2).",
      "[O2/gm] Goblin lookout has no clear view of Spy at entry: starts unperceiving (O2).",
      "[O2/gm] Goblin sentry has no clear view of Spy at entry: starts unperceiving (O2).",
    ]);
    // The gate is shut, the spy stands in the dark: nobody has clear view (O2).
    for (const observer of ["gate-guard", "lookout", "sentry"]) {
      const p = await pair(page, observer, "spy");
      assert.equal(p.seen, "blocked", observer);
      assert.equal(p.perceives, false, observer);
      assert.equal(p.clause, "O2");
      assert.deepEqual(p.cell && [p.cell.perceives, p.cell.clearView], ["false", "false"]);
    }
    assert.match(await page.locator("#log").textContent(), /Spy tries to hide\./);
    // The selected hider's panel reads each observer's view of it.
    assert.equal(await page.locator("#selected-sees").textContent(), "in clear view of: nobody. concealed by darkness from: nobody. no sight line from: Gate guard, Goblin lookout, Goblin sentry.");
    await screenshot(page, "02-hidden.png");

    // 2. Drag the goblin sentry (darkvision 60 ft) out of the keep to (700, 1300),
    // 30 ft from the spy across the open courtyard: clear view, the dark does not
    // conceal within its darkvision (B5); coming into clear view, it makes an
    // immediate Perception check against the held 12 (O4): perceives iff total >= 12.
    const from = await page.evaluate(() => window.playground.tokenOnCanvas("sentry"));
    const to = await page.evaluate(() => window.playground.pointOnCanvas(750, 1350));
    await dragOnCanvas(page, from, to, 20);
    assert.deepEqual(await page.evaluate(() => { const t = window.playground.table.tokens.get("sentry"); return [t.x, t.y]; }), [700, 1300]);
    const sentry = await pair(page, "sentry", "spy");
    assert.equal(sentry.seen, "clear");
    const moveLog = await lastLog(page);
    assert.ok(moveLog.includes("[O4/gm] Goblin sentry comes into clear view of Spy: immediate Perception check against 12 (O4)."), moveLog.join("\n"));
    const sentryTotal = perceptionTotal(moveLog, "Goblin sentry");
    assert.equal(sentry.perceives, sentryTotal >= 12);
    assert.equal(sentry.clause, "O4");
    // The drag is one move of half grid squares, each step told to the engine.
    assert.deepEqual(await page.evaluate(() => window.playground.run.actions.at(-1)), {
      t: "move",
      id: "sentry",
      path: [[1250, 1300], [1200, 1300], [1150, 1300], [1100, 1300], [1050, 1300], [1000, 1300], [950, 1300], [900, 1300], [850, 1300], [800, 1300], [750, 1300], [700, 1300]],
    });
    await screenshot(page, "03-sentry-in-view.png");

    // 3. Open the gate's west door (click its square): the gate guard now has a
    // sight line to the spy, but the spy stands in darkness and the guard does not
    // see in the dark: concealed (B5), no clear view, still not perceived (O2).
    await page.evaluate(() => window.playground.select("gate-guard"));
    const door = await page.evaluate((id) => {
      const wall = window.playground.table.wallsById.get(id);
      return window.playground.pointOnCanvas((wall.c[0] + wall.c[2]) / 2, (wall.c[1] + wall.c[3]) / 2);
    }, GATE_DOOR);
    await clickOnCanvas(page, door);
    assert.equal(await page.evaluate((id) => window.playground.table.wallsById.get(id).doorState, GATE_DOOR), "open");
    const guardDark = await pair(page, "gate-guard", "spy");
    assert.equal(guardDark.seen, "concealed");
    assert.equal(guardDark.perceives, false);
    assert.equal(await page.evaluate(() => window.playground.table.sight.lightingOf("spy").dark), true);
    // The guard's sight line to the spy (centres 1500,1900 and 850,1900), drawn
    // at (1200, 1900): amber (concealed), not green (clear view).
    const colours = await page.evaluate(() => window.playground.colours);
    const concealedLine = await pixelsAround(page, 1200, 1900);
    assert.ok(shows(concealedLine, colours.concealed), "the line is drawn amber: concealed by darkness");
    assert.ok(!shows(concealedLine, colours.clear), "and not green");
    await screenshot(page, "04-door-open.png");

    // 4. Light the lantern (click it): the spy is 7.5 ft from it, lit; the gate
    // guard comes into clear view and checks at once (O4).
    const lantern = await page.evaluate(() => window.playground.pointOnCanvas(1000, 1960));
    await clickOnCanvas(page, lantern);
    assert.deepEqual(await page.evaluate(() => window.playground.table.sight.lightingOf("spy")), { dark: false, by: "light", source: { index: 0, id: "gate-lantern" } });
    const guardLit = await pair(page, "gate-guard", "spy");
    assert.equal(guardLit.seen, "clear");
    const lightLog = await lastLog(page);
    const guardTotal = perceptionTotal(lightLog, "Gate guard");
    assert.equal(guardLit.perceives, guardTotal >= 12);
    assert.equal(guardLit.clause, "O4");
    const clearLine = await pixelsAround(page, 1200, 1900);
    assert.ok(shows(clearLine, colours.clear), "the line is drawn green: clear view");
    assert.ok(!shows(clearLine, colours.concealed), "and no longer amber");
    await screenshot(page, "05-lantern-lit.png");

    // 5. Switch to the percentile rules: the same run played again. The typed 12
    // is now the d100: stealth score = Furtivité 75 (the demo's roster) + 12 = 87
    // (P1); P3 compares it with each observer's acuity sum, clear view plays no
    // part: the guard (40 + 30 + 20 = 90 >= 87) perceives, the goblins (no roster
    // entry, acuities 0) do not.
    await page.selectOption("#ruleset", "percentile");
    await settle(page);
    assert.equal(await page.evaluate(() => window.playground.run.ruleset), "percentile");
    const guardP = await pair(page, "gate-guard", "spy");
    assert.deepEqual([guardP.perceives, guardP.clause], [true, "P3"]);
    for (const goblin of ["lookout", "sentry"]) {
      const p = await pair(page, goblin, "spy");
      assert.deepEqual([p.perceives, p.clause], [false, "P3"], goblin);
    }
    assert.equal(await page.evaluate(() => window.playground.run.actions.length), 10, "the run keeps its actions");
    assert.match(await page.locator("#log").textContent(), /Spy: stealth score 87 = Furtivité 75 \+ d100 12 \+ modifiers \+0 \(none\) \(P1, P2\)\./);
    await screenshot(page, "06-percentile.png");

    // 6. French: the page's words and the engine's explanations.
    await page.selectOption("#lang", "fr");
    await settle(page);
    assert.equal(await page.locator("#answers h2").first().textContent(), "Qui perçoit qui");
    const guardFr = await pair(page, "gate-guard", "spy");
    assert.equal(guardFr.fr, "Gate guard perçoit Spy.");
    // The cell: the pair's state and the decision behind it with its numbers (Session.pairs).
    assert.equal(guardFr.cell.text, "✔ perçu (P3)vue dégagée; score 87 ≤ somme des acuités 90 : Gate guard perçoit Spy (P3).");
    const logText = await page.locator("#log").textContent();
    assert.match(logText, /Spy : score de furtivité 87 = Furtivité 75 \+ d100 12/);
    assert.match(logText, /Spy fait un jet de Furtivité\./);
    assert.doesNotMatch(logText, /Spy makes a stealth roll/);
    await screenshot(page, "07-french.png");

    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it("replays a run from its link", async () => {
    const page = await browser.open();
    await page.evaluate(() => {
      const pg = window.playground;
      pg.perform({ t: "hide", id: "spy", roll: 12 });
      pg.perform({ t: "move", id: "sentry", path: [[1000, 1300], [700, 1300]] });
      pg.perform({ t: "light", id: "gate-lantern", on: true });
    });
    const link = page.url();
    const before = await page.evaluate(() => ({ log: window.playground.table.log.map((e) => e.en), hidden: window.playground.table.lookup }));
    const again = await browser.context.newPage();
    await again.goto(link);
    await again.waitForFunction(() => window.playground?.ready === true);
    const after = await again.evaluate(() => ({ log: window.playground.table.log.map((e) => e.en), hidden: window.playground.table.lookup }));
    assert.deepEqual(after, before);
    await again.close();

    // Undo plays the run again without its last action: the lantern is out.
    await page.click("#undo");
    await settle(page);
    assert.deepEqual(await page.evaluate(() => [window.playground.run.actions.length, window.playground.table.lightsById.get("gate-lantern").hidden, window.playground.table.sight.lightingOf("spy").dark]), [8, true, true]);
    // Stop hiding, then remove the sentry: the engine hears both.
    await page.evaluate(() => window.playground.select("spy"));
    await page.click("#reveal");
    assert.deepEqual(await page.evaluate(() => [...window.playground.table.hiders]), []);
    assert.match(await page.evaluate(() => window.playground.table.log.at(-1).en), /Spy/);
    await page.evaluate(() => window.playground.select("sentry"));
    await page.click("#remove");
    assert.deepEqual(await page.evaluate(() => [...window.playground.table.tokens.keys()]), ["spy", "gate-guard", "lookout"]);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it("bad input: a message naming the field, nothing changed, nothing thrown", async () => {
    const page = await browser.open();
    const state = () => page.evaluate(() => ({ run: JSON.stringify(window.playground.run), hiders: [...window.playground.table.hiders], url: location.hash }));
    const message = () => page.locator("#message").textContent();
    const start = await state();

    // A malformed scene export.
    await page.setInputFiles("#scene-file", { name: "broken-scene.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify({ name: "Broken", grid: 100, walls: [{ _id: "w1", c: [0, 0, 100] }] })) });
    await page.waitForFunction(() => !document.getElementById("message").hidden);
    assert.match(await message(), /walls\[0\]\.c/);
    assert.deepEqual(await state(), start);
    // Not JSON at all.
    await page.setInputFiles("#scene-file", { name: "notes.json", mimeType: "application/json", buffer: Buffer.from("{ walls: oops") });
    await page.waitForFunction(() => document.getElementById("message").textContent.includes("notes.json"));
    assert.match(await message(), /scene file notes\.json: not JSON/);
    assert.deepEqual(await state(), start);

    // An unknown token, from a link.
    const bad = await page.evaluate(() => {
      const run = { ...window.playground.run, actions: [...window.playground.run.actions, { t: "move", id: "ghost", path: [[0, 0]] }] };
      const bytes = new TextEncoder().encode(JSON.stringify(run));
      return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
    });
    await page.evaluate((hash) => { location.hash = `run=${hash}`; }, bad);
    await page.waitForFunction(() => (window.playground.lastError?.field ?? "").includes("actions[6].id"));
    assert.match(await message(), /actions\[6\]\.id: unknown token "ghost"/);
    assert.equal((await state()).run, start.run);
    // A link that is not a run.
    await page.evaluate(() => { location.hash = "run=%%%"; });
    await page.waitForFunction(() => window.playground.lastError?.field === "link");
    assert.equal((await state()).run, start.run);

    // A seed that is no integer, or out of the roller's range.
    await page.fill("#seed", "");
    await page.dispatchEvent("#seed", "change");
    assert.match(await message(), /seed: expected an integer from 0 to 9000000000, got ""/);
    await page.fill("#seed", "99999999999");
    await page.dispatchEvent("#seed", "change");
    assert.match(await message(), /seed: expected an integer from 0 to 9000000000/);
    assert.equal(await page.inputValue("#seed"), "11");
    assert.equal((await state()).run, start.run);

    // Impossible numbers: a d100 of 250 under percentile; a Furtivité of 9999.
    await page.evaluate(() => window.playground.select("spy"));
    await page.selectOption("#ruleset", "percentile");
    await settle(page);
    // The spy stands in the dark (the engine's lighting): P2's `dark` starts ticked.
    assert.equal(await page.isChecked('#situation input[value="dark"]'), true);
    assert.equal(await page.isChecked('#situation input[value="cluttered"]'), false);
    const percentile = await state();
    await page.fill("#hide-roll", "250");
    await page.click("#hide");
    assert.match(await message(), /actions\[6\]\.roll: 250 is out of range 1\.\.=100/);
    assert.deepEqual(await state(), percentile);
    await page.fill("#hide-roll", "twelve");
    await page.click("#hide");
    assert.match(await message(), /Total: expected a number, got "twelve"/);
    assert.deepEqual(await state(), percentile);
    // A typed Furtivité the engine refuses (0..=500).
    await page.selectOption("#add-actor", "");
    await page.fill("#add-name", "Ghost");
    await page.fill("#add-skill", "9999");
    await page.click("#add");
    assert.match(await message(), /actions\[6\]\.stealthSkill: 9999 is out of range/);
    assert.deepEqual(await state(), percentile);

    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it("scenes: the Warning Sign cave, a dropped export kept across a reload; pan and zoom; a plain token; a seeded roll", async () => {
    const page = await browser.open();
    // A seeded roll: empty total. The engine's roller answers the stealth roll
    // request from seed 11 * 1000 + 0 (the run's first roll); the same request
    // on a fresh session with the same seed gives the same total (B4).
    await page.evaluate(() => window.playground.select("spy"));
    await page.click("#hide");
    const seeded = await page.evaluate(async () => {
      const { Session } = await import("../npm/browser.js");
      const table = window.playground.table;
      const fresh = Session.create({ ruleset: "opposed", creatures: [{ id: "spy", name: "Spy", stealthModifier: 4 }] });
      const [answer] = fresh.rollRequests([{ kind: "stealthRoll", hider: "spy", modifiers: { situation: [], free: [] }, clause: "O1" }], 11000);
      fresh.free();
      return { expected: answer.roll, log: table.log.filter((e) => e.clause === "O1" && e.audience === "gm").map((e) => e.en), message: document.getElementById("message").textContent };
    });
    assert.deepEqual(seeded.log, [`Spy enters stealth: Stealth check ${seeded.expected} is held (O1).`]);
    assert.equal(seeded.message, `Spy rolled ${seeded.expected}.`);
    assert.ok(seeded.expected >= 5 && seeded.expected <= 24, "d20 + 4");

    // A plain token with typed numbers, placed at the centre of the view.
    await page.selectOption("#add-actor", "");
    await page.fill("#add-name", "Lurker");
    await page.fill("#add-side", "garrison");
    await page.fill("#add-stealth", "5");
    await page.fill("#add-perception", "3");
    await page.fill("#add-darkvision", "30");
    await page.fill("#add-elevation", "10");
    await page.click("#add");
    const lurker = await page.evaluate(() => {
      const t = window.playground.table.tokens.get("lurker-1");
      return t && { name: t.name, side: t.side, stealthModifier: t.stealthModifier, perceptionModifier: t.perceptionModifier, darkvision: t.darkvision, elevation: t.elevation, actor: t.actor ?? null };
    });
    assert.deepEqual(lurker, { name: "Lurker", side: "garrison", stealthModifier: 5, perceptionModifier: 3, darkvision: 30, elevation: 10, actor: null });
    assert.ok((await page.evaluate(() => window.playground.table.log.at(-1).en)).includes("Lurker"));

    // Zoom with the wheel at the centre, then pan by dragging the floor.
    const box = await page.locator("#map").boundingBox();
    const before = await page.evaluate(() => ({ ...window.playground.viewport }));
    await page.mouse.move(box.x + box.width / 2, box.y + 40);
    await page.mouse.wheel(0, -600);
    await settle(page);
    const zoomed = await page.evaluate(() => ({ ...window.playground.viewport }));
    assert.ok(zoomed.scale > before.scale * 1.5, `zoomed in: ${before.scale} -> ${zoomed.scale}`);
    await dragOnCanvas(page, { x: box.width / 2, y: 40 }, { x: box.width / 2 - 200, y: 140 });
    const panned = await page.evaluate(() => ({ ...window.playground.viewport }));
    assert.ok(Math.abs(panned.x - zoomed.x - 200 / zoomed.scale) < 2 && Math.abs(panned.y - zoomed.y + 100 / zoomed.scale) < 2, JSON.stringify({ zoomed, panned }));
    assert.equal(await page.evaluate(() => window.playground.run.actions.length), 8, "panning is not an action");
    await screenshot(page, "08-zoomed.png");

    // The Warning Sign cave (0.7 export: 379 walls, 45 lights, dark): a new run.
    await page.selectOption("#scene", "warning-sign");
    await page.waitForFunction(() => window.playground.run.scene === "warning-sign");
    assert.deepEqual(await page.evaluate(() => [window.playground.table.normalized.walls.length, window.playground.table.normalized.lights.length, window.playground.run.actions.length]), [379, 45, 0]);
    await screenshot(page, "09-warning-sign.png");

    // A dropped scene export (the Nort Gate file under another name), kept across a reload.
    const nortGate = readFileSync(join(REPO, "playground", "fixtures", "scene-ocd-nort-gate.json"));
    await page.setInputFiles("#scene-file", { name: "my-gate.json", mimeType: "application/json", buffer: nortGate });
    await page.waitForFunction(() => window.playground.run.scene === "dropped");
    assert.equal(await page.locator("#message").textContent(), "Scene loaded from my-gate.json.");
    assert.equal(await page.evaluate(() => window.playground.table.normalized.walls.length), 443);
    await page.evaluate(() => window.playground.perform({ t: "add", id: "scout", actor: "srd51:Scout", side: "garrison", x: 1400, y: 2600 }));
    await page.reload();
    await page.waitForFunction(() => window.playground?.ready === true);
    assert.deepEqual(await page.evaluate(() => [window.playground.run.scene, window.playground.table.normalized.walls.length, [...window.playground.table.tokens.keys()]]), ["dropped", 443, ["scout"]]);

    // Dropped on the map itself (a drop event carrying the file): the cave.
    const cave = readFileSync(join(REPO, "playground", "fixtures", "scene-zahi-oota-warning-sign.json"), "utf8");
    await page.evaluate((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], "cave.json", { type: "application/json" }));
      document.getElementById("stage").dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, cave);
    await page.waitForFunction(() => window.playground.table.normalized.walls.length === 379);
    assert.equal(await page.locator("#message").textContent(), "Scene loaded from cave.json.");

    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it("the keyboard: [ ] select, arrows move by half a square, Escape clears; the selected token's view in words", async () => {
    const page = await browser.open();
    await page.focus("#map");
    await page.keyboard.press("]");
    assert.equal(await page.evaluate(() => window.playground.selected), "spy");
    await page.keyboard.press("]");
    assert.equal(await page.evaluate(() => window.playground.selected), "gate-guard");
    await page.keyboard.press("[");
    assert.equal(await page.evaluate(() => window.playground.selected), "spy");
    // The spy at night in front of the shut gate: nobody in clear view; the
    // sentry in the keep, the guard behind the door: no sight line.
    assert.equal(await page.locator("#selected-sees").textContent(), "clear view: nobody. concealed by darkness: nobody. no sight line: Gate guard, Goblin lookout, Goblin sentry.");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowUp");
    assert.deepEqual(await page.evaluate(() => { const t = window.playground.table.tokens.get("spy"); return [t.x, t.y]; }), [750, 1800]);
    assert.deepEqual(await page.evaluate(() => window.playground.run.actions.slice(-2)), [{ t: "move", id: "spy", path: [[750, 1850]] }, { t: "move", id: "spy", path: [[750, 1800]] }]);
    await page.keyboard.press("Escape");
    assert.equal(await page.evaluate(() => window.playground.selected), null);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it("an engine lost to a panic: the page plays the run again on a fresh one and the action goes through", async () => {
    const page = await browser.open();
    await page.evaluate(() => window.playground.perform({ t: "hide", id: "spy", roll: 12 }));
    const before = await page.evaluate(() => window.playground.table.perceives("gate-guard", "spy"));
    // The package's own test hook: the engine panics, its wasm instance is reset,
    // the table's Session and SceneSight are gone (session_lost).
    const code = await page.evaluate(async () => {
      const engine = await import("../npm/browser.js");
      try {
        engine.__panicForTests();
      } catch (error) {
        return error.code;
      }
      return null;
    });
    assert.equal(code, "engine_panicked");
    await page.evaluate(() => window.playground.select("sentry"));
    await page.focus("#map");
    await page.keyboard.press("ArrowLeft");
    assert.deepEqual(await page.evaluate(() => { const t = window.playground.table.tokens.get("sentry"); return [t.x, t.y, window.playground.run.actions.length]; }), [1250, 1300, 8]);
    assert.deepEqual(await page.evaluate(() => window.playground.table.perceives("gate-guard", "spy")), before);
    assert.equal(await page.locator("#message").isHidden(), true);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it("exports the run as a demo scenario that the demo plays", async () => {
    const page = await browser.open();
    const scenario = await page.evaluate(() => {
      const pg = window.playground;
      pg.perform({ t: "hide", id: "spy", roll: 12 });
      pg.perform({ t: "move", id: "sentry", path: [[1000, 1300], [700, 1300]] });
      pg.perform({ t: "door", wall: "kv3XzwiLDsuIK61t", state: "open" });
      pg.perform({ t: "move", id: "spy", path: [[800, 1800], [750, 1800]] });
      pg.perform({ t: "light", id: "gate-lantern", on: true });
      return pg.exportScenario();
    });
    // The button downloads the same scenario.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
    assert.equal(download.suggestedFilename(), "playground-nort-gate-opposed.json");
    assert.deepEqual(JSON.parse(readFileSync(await download.path(), "utf8")), scenario);
    assert.equal(scenario.ruleset, "opposed");
    assert.deepEqual(scenario.hider, { id: "spy", actor: "Spy", side: "intruders" });
    assert.deepEqual(scenario.observers.map((o) => [o.id, o.x, o.y]), [["gate-guard", 1450, 1850], ["lookout", 1000, 1850], ["sentry", 700, 1300]]);
    assert.deepEqual(scenario.doors, [{ wallId: GATE_DOOR, state: "closed", atTurn: 1 }, { wallId: GATE_DOOR, state: "open", atTurn: 2 }]);
    assert.deepEqual(scenario.turns.map((t) => t.moves), [[{ x: 800, y: 1850 }], [{ x: 800, y: 1850 }], [{ x: 800, y: 1800 }, { x: 750, y: 1800 }], [{ x: 750, y: 1800 }]]);
    assert.deepEqual(scenario.lights, [{ id: "gate-lantern", x: 1000, y: 1960, dim: 60, bright: 30, litAtTurn: 4 }]);
    // The demo plays it (scene and actors paths are relative to demo/scenarios/).
    const file = join(REPO, "demo", "scenarios", "playground-export.test-tmp.json");
    writeFileSync(file, JSON.stringify(scenario, null, 2));
    try {
      const result = spawnSync(process.execPath, ["demo/run.mjs", "--json", "--scenario", file], { cwd: REPO, encoding: "utf8" });
      assert.equal(result.status, 0, result.stderr);
      const [run] = JSON.parse(result.stdout);
      assert.equal(run.hider, "spy");
      assert.equal(run.steps.length, 4);
      // Turn 2 opens the gate door: the gate guard gets a sight line, the spy is still in the dark.
      assert.deepEqual(run.steps[1].lightsLit.doors, [{ wallId: GATE_DOOR, state: "open", atTurn: 2 }]);
      // Turn 4 lights the lantern where the spy stands.
      assert.deepEqual(run.steps[3].lightsLit.lights.map((l) => l.id), ["gate-lantern"]);
      assert.equal(run.steps[3].lightsLit.inDarkness, false);
      // The same run under the percentile rules: the roster carries each actor's numbers.
      await page.selectOption("#ruleset", "percentile");
      const percentile = await page.evaluate(() => window.playground.exportScenario());
      assert.equal(percentile.ruleset, "percentile");
      assert.deepEqual(percentile.roster.Spy, { stealthSkill: 75, acuities: { visual: 40, auditory: 35, olfactory: 15 } });
      assert.deepEqual(Object.keys(percentile.roster).sort(), ["Goblin", "Guard", "Spy"]);
      writeFileSync(file, JSON.stringify(percentile, null, 2));
      const played = spawnSync(process.execPath, ["demo/run.mjs", "--json", "--scenario", file], { cwd: REPO, encoding: "utf8" });
      assert.equal(played.status, 0, played.stderr);
      assert.equal(JSON.parse(played.stdout)[0].ruleset, "percentile");
    } finally {
      rmSync(file, { force: true });
    }
    // What the format cannot hold is refused, naming it: a token with typed numbers.
    await page.evaluate(() => window.playground.perform({ t: "add", id: "ghost", name: "Ghost", side: "garrison", x: 400, y: 1400, stealthSkill: 10 }));
    await page.click("#export");
    assert.match(await page.locator("#message").textContent(), /tokens\.ghost: the demo's scenario format takes tokens from SRD actors only/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
