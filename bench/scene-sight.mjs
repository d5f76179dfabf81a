// Benchmarks of the `SceneSight` class against the free `clearView` (which
// reads the whole scene on every call), in one run. Not a
// test: nothing here is asserted.
//
//   node bench/scene-sight.mjs [--base /tmp/furtive-base] [--quick]
//
// (after scripts/build.sh and npm ci in tests/js; Nort Gate from
// ../shared/fixtures, or the directory in FURTIVE_FIXTURES). `--base` names
// another build with `SceneSight` (a directory whose npm/ holds a built
// addon and wasm, e.g. main's before a change): it runs in the same run,
// and its numbers are printed in a second table.
//
// Tokens stand on open floor, as in `cargo bench --bench clear_view`: the
// grid squares whose centre is at least 10 px from every wall, visited in a
// fixed scrambled order (square `k * 97 mod count`), one-square tokens at
// elevation 0.
//
// - One pair (the first two open-floor tokens): `SceneSight.clearView`
//   with `{ from: { tokenId }, to: { tokenId } }`, `SceneSight.view`, and
//   the free `clearView(scene, query)` on the same scene; then a door
//   toggled and the pair asked again (`update` + `clearView`).
// - `SceneSight.clearViewMatrix()` at 10, 50 and 200 tokens (the indexes
//   and lighting kept between calls), against the free
//   `clearViewMatrix(scene)`.
//
// Medians of batches (µs per call), through napi, wasm in Node and wasm in
// headless Chromium (a cross-origin isolated page, whose
// `performance.now()` is precise to 5 µs).

import { readFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve, withPage } from "../tests/js/chromium.mjs";

const REPO = new URL("../", import.meta.url);
const quick = process.argv.includes("--quick");
const args = process.argv.slice(2);
const baseRoot = args.includes("--base") ? args[args.indexOf("--base") + 1] : null;
const fixtures = process.env.FURTIVE_FIXTURES
  ? pathToFileURL(`${process.env.FURTIVE_FIXTURES.replace(/\/$/, "")}/`)
  : new URL("../shared/fixtures/", REPO);
const nortGate = JSON.parse(await readFile(new URL("scene-ocd-nort-gate.json", fixtures), "utf8"));

// Shared with the page as source text, so both sides measure the same way.
const MEASURE = `
const COUNTS = [10, 50, 200];
/** JSON text with sorted keys: the free functions return keys sorted, SceneSight in field order. */
const canonical = (value) => JSON.stringify(value, (key, item) =>
  item && typeof item === "object" && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))) : item);
const median = (values) => { const s = [...values].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/** Median per call over batches of \`batch\` calls. */
function timeBatch(call, batch, budgetMs = QUICK ? 300 : 1500) {
  const samples = [];
  const start = performance.now();
  while (samples.length < 5 || performance.now() - start < budgetMs) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) call();
    samples.push(((performance.now() - t0) * 1000) / batch);
  }
  return median(samples);
}

/** Distance from point (px, py) to the segment c = [x0, y0, x1, y1]. */
function toSegment(px, py, [x0, y0, x1, y1]) {
  const [dx, dy] = [x1 - x0, y1 - y0];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / length2));
  return Math.hypot(px - (x0 + t * dx), py - (y0 + t * dy));
}

/** The first \`n\` open-floor tokens of the scene (see the header). */
function openFloorTokens(scene, n) {
  const size = scene.grid;
  const columns = Math.floor(scene.width / size);
  const rows = Math.floor(scene.height / size);
  const count = columns * rows;
  const tokens = [];
  for (let k = 0; k < count && tokens.length < n; k++) {
    const square = (k * 97) % count;
    const [x, y] = [(square % columns) * size, Math.floor(square / columns) * size];
    if (scene.walls.every((wall) => toSegment(x + size / 2, y + size / 2, wall.c) >= 10)) {
      tokens.push({ _id: "t" + k, x, y, width: 1, height: 1, elevation: 0 });
    }
  }
  if (tokens.length < n) throw new Error("only " + tokens.length + " open-floor squares");
  return tokens;
}

function run(api, nortGate) {
  const out = { pair: {}, matrix: {} };
  const tokens = openFloorTokens(nortGate, Math.max(...COUNTS));
  const two = { ...nortGate, tokens: tokens.slice(0, 2) };
  const query = { from: { tokenId: tokens[0]._id }, to: { tokenId: tokens[1]._id } };
  const sight = api.SceneSight.parse(two);
  const expected = api.clearView(two, query);
  if (canonical(sight.clearView(query)) !== canonical(expected)) throw new Error("SceneSight and clearView disagree");
  out.pair.clearView = expected.clearView;
  out.pair.handle = timeBatch(() => sight.clearView(query), 1000);
  out.pair.view = timeBatch(() => sight.view(tokens[0]._id, tokens[1]._id), 1000);
  out.pair.free = timeBatch(() => api.clearView(two, query), 5);
  out.pair.parse = timeBatch(() => api.SceneSight.parse(two).free(), 5);
  const door = nortGate.walls.find((wall) => wall.door === 1)._id;
  let open = false;
  out.pair.doorThenClearView = timeBatch(() => {
    open = !open;
    sight.update({ type: "door", wallId: door, state: open ? "open" : "closed" });
    sight.clearView(query);
  }, 500);
  sight.free();
  for (const n of COUNTS) {
    const scene = { ...nortGate, tokens: tokens.slice(0, n) };
    const handle = api.SceneSight.parse(scene);
    const matrix = handle.clearViewMatrix();
    if (canonical(matrix) !== canonical(api.clearViewMatrix(scene))) throw new Error("matrices disagree at " + n);
    out.matrix[n] = {
      handle: timeBatch(() => handle.clearViewMatrix(), n <= 10 ? 200 : n <= 50 ? 20 : 2),
      free: timeBatch(() => api.clearViewMatrix(scene), n <= 50 ? 5 : 1),
      clear: matrix.clearView.flat().filter(Boolean).length - n,
    };
    handle.free();
  }
  return out;
}`;
const measure = new Function("QUICK", `${MEASURE}; return run;`)(quick);

const results = {};
const napi = await import(new URL("npm/node.js", REPO));
if (napi.backend !== "napi") throw new Error("npm/node.js did not load the napi addon");
const wasm = await import(new URL("npm/browser.js", REPO));
await wasm.init(await readFile(new URL("npm/wasm/furtive_wasm_bg.wasm", REPO)));
results.napi = measure(napi, nortGate);
results.wasmNode = measure(wasm, nortGate);
const base = {};
if (baseRoot) {
  const baseUrl = new URL(`file://${baseRoot.replace(/\/?$/, "/")}`);
  const baseNapi = await import(new URL("npm/node.js", baseUrl));
  const baseWasm = await import(new URL("npm/browser.js", baseUrl));
  await baseWasm.init(await readFile(new URL("npm/wasm/furtive_wasm_bg.wasm", baseUrl)));
  base.napi = measure(baseNapi, nortGate);
  base.wasmNode = measure(baseWasm, nortGate);
}

const server = await serve(fileURLToPath(REPO), {
  headers: { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" },
  mounts: baseRoot ? { "/base/": baseRoot } : {},
});
try {
  results.chromium = await withPage(server.origin, (page) =>
    page.evaluate(
      async ({ source, quick, nortGate, withBase }) => {
        if (!crossOriginIsolated) throw new Error("the page is not cross-origin isolated: timings would be coarse");
        const run = new Function("QUICK", `${source}; return run;`)(quick);
        const api = await import("/npm/browser.js");
        await api.init();
        const out = run(api, nortGate);
        if (withBase) {
          const baseApi = await import("/base/npm/browser.js");
          await baseApi.init();
          out.base = run(baseApi, nortGate);
        }
        return out;
      },
      { source: MEASURE, quick, nortGate, withBase: Boolean(baseRoot) },
    ),
  );
} finally {
  await server.close();
}

const µs = (x) => (x === undefined ? "" : x < 10 ? x.toFixed(2) : x < 1000 ? x.toFixed(1) : `${(x / 1000).toFixed(2)} ms`);
const line = (cells) => `| ${cells.join(" | ")} |`;
function print(title, results) {
  const backends = [["napi", results.napi], ["wasm (Node)", results.wasmNode], ["wasm (Chromium)", results.chromium]];
  console.log(`\n## ${title}`);
  console.log(`\nNort Gate (${nortGate.walls.length} walls), one pair of open-floor tokens (clear view: ${results.napi.pair.clearView}); median µs per call.\n`);
  console.log(line(["", ...backends.map(([name]) => name)]));
  console.log(line(["---", ...backends.map(() => "---:")]));
  for (const [name, key] of [
    ["SceneSight.clearView (scene read once)", "handle"],
    ["SceneSight.view", "view"],
    ["update (a door) + SceneSight.clearView", "doorThenClearView"],
    ["free clearView (scene read per call)", "free"],
    ["SceneSight.parse + free()", "parse"],
  ]) {
    console.log(line([name, ...backends.map(([, r]) => µs(r.pair[key]))]));
  }
  console.log(`\nclearViewMatrix on Nort Gate, open-floor tokens; median µs per call.\n`);
  console.log(line(["tokens (ordered pairs with clear view)", ...backends.flatMap(([name]) => [`${name} SceneSight`, `${name} free`])]));
  console.log(line(["---", ...backends.flatMap(() => ["---:", "---:"])]));
  for (const n of Object.keys(results.napi.matrix)) {
    console.log(line([`${n} (${results.napi.matrix[n].clear})`, ...backends.flatMap(([, r]) => [µs(r.matrix[n].handle), µs(r.matrix[n].free)])]));
  }
}
print("this build", results);
if (baseRoot) print(`base (${baseRoot})`, { napi: base.napi, wasmNode: base.wasmNode, chromium: results.chromium.base });
