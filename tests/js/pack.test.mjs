// The package as users get it: `furtive` and this platform's addon package
// `furtive-<platform>` packed as the release makes them
// (tests/release/npm-packages.mjs: the napi-rs CLI), both installed in a
// fresh directory, then the same scenario (a) in Node through `import
// "furtive"` (napi, by the `node` export condition) and (b) in headless
// Chromium through the installed package's browser entry, loaded by URL.
// Both must give the same results.
//
//   node --test tests/js/pack.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, withPage } from "./chromium.mjs";
import { packForHost } from "../release/npm-packages.mjs";

// The scenario, as source text so it runs unchanged in Node and in the page.
// P1-P3: Furtivité 49 + d100 37 / 2 = 67 beats an acuity sum of 66, ties 67.
const SCENARIO = `
async function scenario(furtive) {
  await furtive.init();
  const state = furtive.createState({
    ruleset: "percentile",
    creatures: [
      { id: "spy", stealthSkill: 49 },
      { id: "tie", acuities: { visual: 30, auditory: 20, olfactory: 17 } },
      { id: "low", acuities: { visual: 30, auditory: 20, olfactory: 16 } },
    ],
  });
  const outcome = furtive.apply(state, { type: "enterStealth", hider: "spy", roll: 37 });
  let error = null;
  try {
    furtive.apply(outcome.state, { type: "enterStealth", hider: "ghost", roll: 37 });
  } catch (e) {
    error = { isError: e instanceof Error, code: e.code, message: e.message };
  }
  return {
    backend: furtive.backend,
    score: outcome.state.hiders.spy.score,
    tie: furtive.perceives(outcome.state, { observer: "tie", hider: "spy" }).allowed,
    low: furtive.perceives(outcome.state, { observer: "low", hider: "spy" }).allowed,
    hiddenFrom: furtive.hiddenFrom(outcome.state),
    outcome,
    error,
  };
}`;

const work = await mkdtemp(join(tmpdir(), "furtive-pack-"));
test.after(() => rm(work, { recursive: true, force: true }));

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

let installed;

test("npm pack of furtive and of this platform's package, then npm install of both into a fresh directory", async () => {
  const packed = packForHost(work);
  const files = packed.main.files;
  for (const required of ["README.md", "browser.js", "errors.js", "arguments.js", "classes.js", "explain.js", "explanations.js", "signatures.js", "native.js", "index.d.ts", "types.d.ts", "furtive.schema.json", "node.js", "package.json", "wasm/furtive_wasm.js", "wasm/furtive_wasm_bg.wasm"]) {
    assert.ok(files.includes(required), `the tarball lacks ${required}: ${files.join(", ")}`);
  }
  assert.deepEqual(files.filter((f) => f.endsWith(".node")), [], "the addon is in its platform package, not in furtive");
  const app = join(work, "app");
  await run("mkdir", ["-p", app], work);
  await writeFile(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  run("npm", ["install", "--no-audit", "--no-fund", "--offline", packed.main.tarball, packed.platform.tarball], app);
  installed = app;
  const manifest = JSON.parse(await readFile(join(app, "node_modules/furtive/package.json"), "utf8"));
  assert.equal(manifest.name, "furtive");
});

let nodeResult;

test("Node: import \"furtive\" runs the napi addon", async () => {
  assert.ok(installed, "the install step failed");
  await writeFile(join(installed, "scenario.mjs"), `import * as furtive from "furtive";\n${SCENARIO}\nconsole.log(JSON.stringify(await scenario(furtive)));\n`);
  nodeResult = JSON.parse(run(process.execPath, ["scenario.mjs"], installed));
  assert.equal(nodeResult.backend, "napi");
  assert.equal(nodeResult.score, 67);
  assert.equal(nodeResult.tie, true);
  assert.equal(nodeResult.low, false);
  assert.deepEqual(nodeResult.hiddenFrom, { low: ["spy"] });
  assert.deepEqual(nodeResult.error, { isError: true, code: "unknown_token", message: "hider: unknown token `ghost`" });
  // The other entry points resolve too.
  const entries = run(process.execPath, ["--input-type=module", "-e", `
    import * as browser from "furtive/browser";
    import * as node from "furtive/node";
    import { createRequire } from "node:module";
    const wasm = createRequire(import.meta.url).resolve("furtive/wasm");
    console.log(JSON.stringify([browser.backend, node.backend, wasm.endsWith("furtive_wasm_bg.wasm")]));
  `], installed);
  assert.deepEqual(JSON.parse(entries), ["wasm", "napi", true]);
});

test("Chromium: the installed browser entry, imported by URL, gives the same results", async () => {
  assert.ok(nodeResult, "the Node step failed");
  const server = await serve(installed);
  try {
    const browserResult = await withPage(server.origin, async (page) => {
      const result = await page.evaluate(async (source) => {
        const furtive = await import("/node_modules/furtive/browser.js");
        const scenario = new Function(`${source}; return scenario;`)();
        const first = await scenario(furtive);
        // A panic aborts the wasm instance; the wrapper resets it and the
        // next calls give the same results as before.
        let panic = null;
        try {
          furtive.__panicForTests();
        } catch (e) {
          panic = { isError: e instanceof Error, code: e.code };
        }
        const again = await scenario(furtive);
        return { ...first, panic, sameAfterPanic: JSON.stringify(again) === JSON.stringify(first) };
      }, SCENARIO);
      assert.deepEqual(page.furtiveErrors, [], "the page logged errors");
      return result;
    });
    const { panic, sameAfterPanic, ...scenarioResult } = browserResult;
    assert.deepEqual(panic, { isError: true, code: "engine_panicked" });
    assert.equal(sameAfterPanic, true, "results changed after the wasm instance was reset");
    assert.equal(scenarioResult.backend, "wasm");
    assert.deepEqual({ ...scenarioResult, backend: "napi" }, nodeResult);
  } finally {
    await server.close();
  }
});
