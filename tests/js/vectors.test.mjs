// Runs every shared vector (tests/vectors/*.json, semantics in
// tests/vectors/README.md) on the implementation FURTIVE_IMPL names, twice:
// through the free functions and through the `Session` class (see
// runner.mjs), checks
// `expect` / `expectError`, and compares the recorded results deep-equal
// with the golden files written by the Rust reference runner.
//
//   FURTIVE_IMPL=napi|wasm-node|wasm-browser|foundry-wasm node --test tests/js/vectors.test.mjs
//
// wasm-browser serves the repository on 127.0.0.1, opens a page in headless
// Chromium that imports /npm/browser.js and /tests/js/runner.mjs by URL, runs
// the same runner there and hands the recorded results back for comparison.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runVectors } from "./runner.mjs";
import { REPO, loadNodeImpl, selectedImpl } from "./impl.mjs";
import { serve, withPage } from "./chromium.mjs";

const impl = selectedImpl();
const vectorsDir = new URL("tests/vectors/", REPO);
const names = readdirSync(vectorsDir)
  .filter((file) => file.endsWith(".json"))
  .sort()
  .map((file) => file.slice(0, -".json".length));
const vectors = names.map((name) => JSON.parse(readFileSync(new URL(`${name}.json`, vectorsDir), "utf8")));
const golden = (name) => JSON.parse(readFileSync(new URL(`golden/${name}.json`, vectorsDir), "utf8"));

async function runInChromium() {
  const server = await serve(fileURLToPath(REPO));
  try {
    return await withPage(server.origin, async (page) => {
      const runs = await page.evaluate(async (vectors) => {
        const api = await import("/npm/browser.js");
        const { runVectors } = await import("/tests/js/runner.mjs");
        await api.init();
        return { functions: runVectors(api, vectors, "functions"), session: runVectors(api, vectors, "session") };
      }, vectors);
      assert.deepEqual(page.furtiveErrors, [], "the page logged errors");
      return runs;
    });
  } finally {
    await server.close();
  }
}

/**
 * The calls the build under test leaves out: the Foundry module's wasm has
 * no seeded roller and no scene reader (scripts/build-wasm.sh foundry). A
 * vector stops at such a call, which must answer `not_in_this_build`.
 */
const ABSENT = impl === "foundry-wasm" ? ["settle", "rollRequests", "parseScene", "clearView", "clearViewMatrix"] : [];

async function runInNode() {
  const api = await loadNodeImpl(impl);
  return { functions: runVectors(api, vectors, "functions", ABSENT), session: runVectors(api, vectors, "session", ABSENT) };
}

const forms = impl === "wasm-browser" ? await runInChromium() : await runInNode();

test(`${impl}: tests/vectors holds vectors`, () => {
  assert.ok(vectors.length > 0, "no vector found");
  assert.equal(forms.functions.length, vectors.length);
  assert.equal(forms.session.length, vectors.length);
});

const known = [];
for (const [form, runs] of Object.entries(forms)) for (const run of runs) {
  test(`${impl} (${form}): ${run.name}`, () => {
    assert.equal(run.name, names[runs.indexOf(run)], "vector `name` must equal its file name");
    if (run.knownIssue === null) {
      assert.deepEqual(run.failures, [], `expectations failed:\n  ${run.failures.join("\n  ")}`);
    } else if (run.failures.length === 0) {
      assert.fail("marked knownIssue but every expectation now holds; remove `knownIssue` and regenerate its golden");
    } else {
      known.push(`${run.name} (${form}) — ${run.knownIssue}\n    ${run.failures.join("\n    ")}`);
    }
    const expected = run.stopped ? golden(run.name).slice(0, run.recorded.length) : golden(run.name);
    assert.deepStrictEqual(run.recorded, expected, "recorded results differ from the golden file");
  });
}

test(`${impl}: known issues are listed`, () => {
  if (known.length > 0) {
    process.stderr.write(`\n!!!!!!!! ${known.length} KNOWN ISSUE(S) on ${impl}: expectations skipped !!!!!!!!\n  ${known.join("\n  ")}\n`);
  }
});
