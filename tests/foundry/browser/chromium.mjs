/**
 * Headless Chromium for the browser suites: Debian's `/usr/bin/chromium`
 * (or `$CHROMIUM`) driven by playwright-core in a fresh profile, with the
 * flags this machine needs (no sandbox as root, no GPU, no background
 * networking), and the static server that serves `root` as Foundry serves
 * its files.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

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
