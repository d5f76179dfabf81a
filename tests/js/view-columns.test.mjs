// `Session.apply` of a `viewChanged` as columns against the same event as
// JSON text and against the free function `apply(state, event)`, on the
// napi addon, wasm in Node, wasm in headless Chromium and the Foundry
// module's lean wasm (which has no columns and sends text): named cases
// (toJSON on the view, getters and proxy traps that throw, 10,000 and
// 70,000 entries, ...) and seeded random ones, plain and near misses
// (view-columns.mjs).
//
//   node --test tests/js/view-columns.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { REPO, loadNodeImpl } from "./impl.mjs";
import { serve, withPage } from "./chromium.mjs";
import { compareViewBatches, compareViewChanged, sendsBatchColumns, sendsColumns } from "./view-columns.mjs";

/** Random cases per backend, besides the named ones. */
const COUNT = 400;
/** Lists of events for `applyAll`, per backend. */
const BATCHES = 200;

for (const impl of ["napi", "wasm-node"]) {
  test(`${impl}: Session.apply of a viewChanged answers as columns what it answers as text and as the free function (named and ${COUNT} random cases)`, async () => {
    const api = await loadNodeImpl(impl);
    assert.equal(sendsColumns(api), true, `${impl} sends a plain viewChanged as columns`);
    const { cases, columns, problems } = compareViewChanged(api, { seed: 20261201, count: COUNT });
    assert.deepEqual(problems, [], `${problems.length} of ${cases} cases disagree`);
    assert.ok(columns > cases / 3, `only ${columns} of ${cases} cases went as columns`);
  });

  test(`${impl}: Session.applyAll of viewChanged events answers as columns what it answers as text (named lists, 65,536 entries or events and just over, and ${BATCHES} random lists)`, async () => {
    const api = await loadNodeImpl(impl);
    assert.equal(sendsBatchColumns(api), true, `${impl} sends a list of plain viewChanged events as columns`);
    const { batches, columns, problems } = compareViewBatches(api, { seed: 20261202, count: BATCHES });
    assert.deepEqual(problems, [], `${problems.length} of ${batches} lists disagree`);
    assert.ok(columns > batches / 5, `only ${columns} of ${batches} lists went as columns`);
  });
}

test(`wasm in Chromium: Session.apply of a viewChanged answers as columns what it answers as text and as the free function (named and ${COUNT} random cases)`, async () => {
  const server = await serve(fileURLToPath(REPO));
  try {
    const outcome = await withPage(server.origin, async (page) => {
      const result = await page.evaluate(async ({ count, batches }) => {
        const api = await import("/npm/browser.js");
        const { compareViewBatches, compareViewChanged, sendsBatchColumns, sendsColumns } = await import("/tests/js/view-columns.mjs");
        await api.init();
        return {
          columnsTaken: sendsColumns(api),
          ...compareViewChanged(api, { seed: 20261201, count }),
          batchColumnsTaken: sendsBatchColumns(api),
          batch: compareViewBatches(api, { seed: 20261202, count: batches }),
        };
      }, { count: COUNT, batches: BATCHES });
      assert.deepEqual(page.furtiveErrors, [], "the page logged errors");
      return result;
    });
    assert.equal(outcome.columnsTaken, true, "Chromium's wasm sends a plain viewChanged as columns");
    assert.deepEqual(outcome.problems, [], `${outcome.problems.length} of ${outcome.cases} cases disagree`);
    assert.ok(outcome.columns > outcome.cases / 3, `only ${outcome.columns} of ${outcome.cases} cases went as columns`);
    assert.equal(outcome.batchColumnsTaken, true, "Chromium's wasm sends a list of plain viewChanged events as columns");
    assert.deepEqual(outcome.batch.problems, [], `${outcome.batch.problems.length} of ${outcome.batch.batches} lists disagree`);
    assert.ok(outcome.batch.columns > outcome.batch.batches / 5, `only ${outcome.batch.columns} of ${outcome.batch.batches} lists went as columns`);
  } finally {
    await server.close();
  }
});

const lean = new URL("target/wasm-foundry/", REPO);
test("the Foundry module's lean wasm (no view-columns) sends every viewChanged as text, with the same answers", { skip: !existsSync(new URL("furtive_wasm_bg.wasm", lean)) && "run scripts/build-wasm.sh foundry first" }, async () => {
  // The layout build-foundry.sh ships: the npm wrapper next to the lean wasm.
  const dir = mkdtempSync(join(tmpdir(), "furtive-lean-"));
  try {
    for (const file of ["browser.js", "arguments.js", "errors.js", "handle.js", "signatures.js", "explain.js", "explanations.js", "packed.js"]) {
      cpSync(fileURLToPath(new URL(`npm/${file}`, REPO)), join(dir, file));
    }
    cpSync(fileURLToPath(lean), join(dir, "wasm"), { recursive: true });
    const api = await import(pathToFileURL(join(dir, "browser.js")).href);
    await api.init();
    assert.equal(sendsColumns(api), false, "the lean wasm has no Session.applyViewChanged: text");
    const { cases, problems } = compareViewChanged(api, { seed: 7, count: 100, functions: false });
    assert.deepEqual(problems, [], `${problems.length} of ${cases} cases disagree`);
    assert.equal(sendsBatchColumns(api), false, "the lean wasm has no Session.applyAllViewChanged: text");
    const batch = compareViewBatches(api, { seed: 8, count: 50 });
    assert.deepEqual(batch.problems, [], `${batch.problems.length} of ${batch.batches} lists disagree`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
