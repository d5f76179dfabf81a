/**
 * Install test: dist/furtive.zip unzipped into a temporary user data folder
 * as Foundry installs a module (Data/modules/furtive/, where Foundry reads
 * modules: https://foundryvtt.com/article/module-development/), then:
 * - every path its module.json names exists in that folder;
 * - headless Chromium (playwright-core, /usr/bin/chromium) opens a page
 *   served from the Data folder, so the module is at /modules/furtive/ as
 *   Foundry serves it; the fake Foundry loads the module's entry files from
 *   module.json, the engine's wasm comes from the module's own folder, and a
 *   Hide through the API runs it. Screenshot: tests/artifacts/foundry-install.png.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, it } from "node:test";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { serve } from "./static-server.mjs";
import { namedPaths } from "../../../scripts/module-manifest.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const zip = path.join(repoRoot, "dist/furtive.zip");
const artifact = path.join(repoRoot, "tests/artifacts/foundry-install.png");

let userData;
let moduleDir;
let site;
let context;
let browserDir;
before(async () => {
  assert.ok(existsSync(zip), "dist/furtive.zip is missing: bash scripts/build-foundry.sh");
  userData = mkdtempSync(path.join(os.tmpdir(), "furtive-user-data-"));
  moduleDir = path.join(userData, "Data/modules/furtive");
  mkdirSync(moduleDir, { recursive: true });
  execFileSync("unzip", ["-q", zip, "-d", moduleDir]);
  // The fake Foundry and its test world, beside the Data folder's modules
  // (Foundry serves its own client files from outside the user data too).
  symlinkSync(path.join(repoRoot, "tests/foundry"), path.join(userData, "Data/harness"));
  site = await serve(path.join(userData, "Data"), {});
  browserDir = mkdtempSync(path.join(os.tmpdir(), "furtive-chromium-"));
  context = await chromium.launchPersistentContext(browserDir, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    viewport: { width: 900, height: 500 },
  });
});
after(async () => {
  await context?.close();
  await site?.close();
  for (const dir of [userData, browserDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

it("the unzipped module has every file its module.json names", () => {
  const manifest = JSON.parse(readFileSync(path.join(moduleDir, "module.json"), "utf8"));
  assert.equal(manifest.id, "furtive", "the folder's name is the module's id");
  const named = namedPaths(manifest);
  assert.ok(named.length >= 4, `module.json names its entry file, styles and languages: ${named}`);
  for (const file of named) assert.ok(existsSync(path.join(moduleDir, file)), `Data/modules/furtive/${file}`);
});

it("served at /modules/furtive/, the module loads its entry file and the engine's wasm from its own folder, and hides a token", async () => {
  const manifest = JSON.parse(readFileSync(path.join(moduleDir, "module.json"), "utf8"));
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} ${message.location()?.url ?? ""}`);
  });
  /** @type {{path: string, status: number, type: string}[]} */
  const responses = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    responses.push({ path: url.pathname, status: response.status(), type: response.headers()["content-type"] ?? "" });
  });

  await page.goto(`${site.url}harness/browser/install.html`);
  await page.waitForFunction(() => window.furtiveInstall !== undefined, null, { timeout: 60_000 });
  const outcome = await page.evaluate(() => window.furtiveInstall);
  mkdirSync(path.dirname(artifact), { recursive: true });
  await page.screenshot({ path: artifact });

  assert.deepEqual(errors, [], "the page logged no errors");
  assert.equal(outcome.ok, true, outcome.error);
  assert.equal(outcome.readyHook, true, "the furtive.ready hook fired");
  assert.equal(outcome.hidden, true, "the rogue hid: the engine decided");

  const moduleFiles = responses.filter((r) => r.path.startsWith("/modules/"));
  assert.deepEqual(moduleFiles.filter((r) => r.status !== 200), [], "every module file was found");
  for (const entry of manifest.esmodules) {
    assert.ok(moduleFiles.some((r) => r.path === `/modules/furtive/${entry}`), `the entry file ${entry} came from /modules/furtive/`);
  }
  const wasm = responses.filter((r) => r.path.endsWith(".wasm"));
  assert.equal(wasm.length, 1, `one wasm file: ${JSON.stringify(wasm)}`);
  assert.ok(wasm[0].path.startsWith("/modules/furtive/"), `the wasm came from the module's folder: ${wasm[0].path}`);
  assert.equal(wasm[0].status, 200);
  assert.match(wasm[0].type, /^application\/wasm/);
  assert.ok(existsSync(path.join(moduleDir, wasm[0].path.slice("/modules/furtive/".length))), "the wasm is a file of the unzipped module");
  // Nothing came from the repository's own module or npm folders.
  assert.deepEqual(responses.filter((r) => /^\/(foundry-module|npm)\//.test(r.path)), []);
});
