// Helpers of the playground's browser tests and benchmark: the page served
// by playground/serve.mjs, headless Debian Chromium driven by
// playwright-core, and screenshots compared loosely with reviewed copies.
//
// Screenshots: each run writes them to tests/artifacts/playground/
// (git-ignored) and compares them with the reviewed copies in
// tests/playground/screenshots/; FURTIVE_UPDATE_SCREENSHOTS=1 rewrites the
// reviewed copies instead (look at them before committing).

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

import { serve } from "../../playground/serve.mjs";

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const here = dirname(fileURLToPath(import.meta.url));
export const REPO = join(here, "..", "..");
const REVIEWED = join(here, "screenshots");
const ARTIFACTS = join(REPO, "tests", "artifacts", "playground");
export const UPDATE = Boolean(process.env.FURTIVE_UPDATE_SCREENSHOTS);

/**
 * Serves the repository and launches Chromium; `open(hash)` opens the page
 * and waits until it is ready. Console errors and uncaught exceptions are
 * collected in `page.errors`.
 * @param {{ headers?: Record<string, string>, viewport?: { width: number, height: number } }} [options]
 */
export async function launch({ headers = {}, viewport = { width: 1400, height: 820 } } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (scripts/test-js.sh does)`);
  if (!existsSync(join(REPO, "npm", "wasm", "furtive_wasm_bg.wasm"))) throw new Error("npm/wasm/ is missing: run bash scripts/playground.sh --prepare");
  if (!existsSync(join(REPO, "playground", "fixtures", "scene-ocd-nort-gate.json"))) throw new Error("playground/fixtures/ is missing: run bash scripts/playground.sh --prepare");
  const site = await serve({ headers });
  const profile = await mkdtemp(join(tmpdir(), "furtive-playground-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    viewport,
    acceptDownloads: true,
  });
  await mkdir(ARTIFACTS, { recursive: true });
  return {
    url: site.url,
    context,
    /** Opens the page (with `hash`, a run) and waits for it. */
    async open(hash = "") {
      const page = await context.newPage();
      page.errors = [];
      page.on("pageerror", (error) => page.errors.push(`uncaught: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error") page.errors.push(`console.error: ${message.text()}`);
      });
      page.on("response", (response) => {
        if (response.status() >= 400) page.errors.push(`HTTP ${response.status()}: ${response.url()}`);
      });
      await page.goto(`${site.url}${hash}`);
      await page.waitForFunction(() => window.playground?.ready === true || window.playground?.startError, null, { timeout: 30_000 });
      const startError = await page.evaluate(() => window.playground.startError ?? null);
      assert.equal(startError, null, "the page starts");
      await settle(page);
      return page;
    },
    async close() {
      await context.close();
      await site.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Waits until the page has painted its last change (two animation frames). */
export function settle(page) {
  return page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * Takes a screenshot of the page and compares it loosely with the
 * reviewed copy `name`: at most `tolerance` (0.5 %) of the pixels may differ by
 * more than 48 in a channel (fonts and anti-aliasing move a little; a
 * token, a line or a panel that changes does not pass). The comparison
 * runs in the page itself (canvas pixels), so no image library is needed.
 * @param {import("playwright-core").Page} page
 * @param {string} name
 * @param {number} [tolerance]
 */
export async function screenshot(page, name, tolerance = 0.005) {
  await settle(page);
  const shot = await page.screenshot();
  await writeFile(join(ARTIFACTS, name), shot);
  const reviewed = join(REVIEWED, name);
  if (UPDATE) {
    await mkdir(REVIEWED, { recursive: true });
    await writeFile(reviewed, shot);
    return;
  }
  assert.ok(existsSync(reviewed), `${reviewed} is missing: run with FURTIVE_UPDATE_SCREENSHOTS=1 and review it`);
  const expected = await readFile(reviewed);
  const differing = await page.evaluate(async ([a, b]) => {
    const load = async (base64) => createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
    const [x, y] = await Promise.all([load(a), load(b)]);
    if (x.width !== y.width || x.height !== y.height) return 1;
    const pixels = (image) => {
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0);
      return context.getImageData(0, 0, image.width, image.height).data;
    };
    const p = pixels(x);
    const q = pixels(y);
    let count = 0;
    for (let i = 0; i < p.length; i += 4) {
      if (Math.abs(p[i] - q[i]) > 48 || Math.abs(p[i + 1] - q[i + 1]) > 48 || Math.abs(p[i + 2] - q[i + 2]) > 48) count++;
    }
    return count / (p.length / 4);
  }, [shot.toString("base64"), expected.toString("base64")]);
  assert.ok(differing <= tolerance, `${name}: ${(differing * 100).toFixed(2)} % of the pixels differ from the reviewed copy (at most ${(tolerance * 100).toFixed(2)} %); see tests/artifacts/playground/${name}`);
}

/**
 * Drags with the mouse from one canvas point to another (CSS pixels from
 * the canvas's top-left), in `steps` moves, each one handled before the
 * next (so that no pointer event is merged with another: each step the
 * page takes is the same on every run, and so are the seeded rolls).
 */
export async function dragOnCanvas(page, from, to, steps = 12) {
  const box = await page.locator("#map").boundingBox();
  await page.mouse.move(box.x + from.x, box.y + from.y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(box.x + from.x + ((to.x - from.x) * i) / steps, box.y + from.y + ((to.y - from.y) * i) / steps);
    await settle(page);
  }
  await page.mouse.up();
  await settle(page);
}

/** Clicks a canvas point (CSS pixels from the canvas's top-left). */
export async function clickOnCanvas(page, at) {
  const box = await page.locator("#map").boundingBox();
  await page.mouse.click(box.x + at.x, box.y + at.y);
  await settle(page);
}
