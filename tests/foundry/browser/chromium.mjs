/**
 * Headless Chromium for the browser suites: Debian's `/usr/bin/chromium`
 * (or `$CHROMIUM`) driven by playwright-core in a fresh profile, with the
 * flags this machine needs (no sandbox as root, no GPU, no background
 * networking), and the static server that serves `root` as Foundry serves
 * its files.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { serve } from "./static-server.mjs";

/**
 * Serves `root` and opens a browser context on a new profile.
 * @param {string} root the folder served
 * @param {{width: number, height: number}} viewport
 * @returns {Promise<{site: any, context: import("playwright-core").BrowserContext, close: () => Promise<void>}>}
 */
export async function launchChromium(root, viewport) {
  const site = await serve(root);
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), "furtive-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    viewport,
  });
  const close = async () => {
    await context.close();
    await site.close();
    await rm(userDataDir, { recursive: true, force: true });
  };
  return { site, context, close };
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository, which the suites serve. */
export const REPO_ROOT = path.resolve(here, "../../..");
/**
 * Where a run writes its screenshots: tests/artifacts/screenshots/
 * (git-ignored), or the reviewed copies in tests/foundry/browser/screenshots/
 * when FURTIVE_UPDATE_SCREENSHOTS=1 is set.
 */
export const SHOTS = process.env.FURTIVE_UPDATE_SCREENSHOTS
  ? path.join(here, "screenshots")
  : path.join(REPO_ROOT, "tests", "artifacts", "screenshots");

/**
 * The browser of one suite, serving the repository: launched before its
 * tests and closed after them (node:test hooks); `site` and `context` are
 * set once it is launched.
 * @param {{width: number, height: number}} viewport
 * @returns {{site: any, context: import("playwright-core").BrowserContext}}
 */
export function chromiumSuite(viewport) {
  const suite = { site: undefined, context: undefined };
  let close;
  before(async () => {
    ({ site: suite.site, context: suite.context, close } = await launchChromium(REPO_ROOT, viewport));
    await mkdir(SHOTS, { recursive: true });
  });
  after(async () => {
    await close?.();
  });
  return suite;
}
