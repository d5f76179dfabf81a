// Benchmarks of the `Session` class against the free `apply`, old and new,
// in one run. Not a test: nothing here is asserted.
//
//   node bench/session.mjs [--old /tmp/furtive-old] [--base /tmp/furtive-base] [--quick]
//
// (after scripts/build.sh and npm ci in tests/js). `--old` names a checkout
// of the commit before `Session` (d42ade1) whose npm/ holds its built addon
// and wasm; without it the old columns are left out. `--base` names another
// build that has `Session` (a directory whose npm/ holds a built addon and
// wasm, e.g. a copy of main's npm/ before a change): its `Session.apply`,
// `perceives` and free `apply` rows run in the same run, beside this build's.
//
// The table, for 3, 20, 100, 200 and 1000 creatures (`opposed`, a quarter
// of them hiding with a held total of 15, nobody in view at entry; the ids
// are 16 characters like Foundry's): one `viewChanged` of the first hider
// naming 150 observers (all of them when fewer), each coming into clear
// view, so every named pair changes and asks for an O4 Perception check.
//
// Beside it, the same sizes: "none changes", the same observers named with
// none coming into clear view (no pair changes: the cost of reading and
// checking the event), and "one comes into view", only the first of them
// coming into clear view (one O4 request: a typical token drag).
//
// - `Session.apply`: the median of single timed calls; between two calls the
//   hider is put back (`applyAll([stopHiding, enterStealth])`, untimed), so
//   every timed call does the same work. Through napi, wasm in Node and wasm
//   in headless Chromium (a cross-origin isolated page, whose
//   `performance.now()` is precise to 5 µs). "its log read": the same call
//   and a read of `effects.log`, which the package renders when it is
//   first read (a base whose log came rendered pays nothing more there).
// - `Session.applyAll` of three hiders' views (one user action: a door
//   opening in front of three hiders), each naming 150 observers, none
//   coming into clear view; the median of single timed calls.
// - `perceives`: one `Session.perceives` query, the median of batches of 1000.
// - free `apply(state, event)`: this build, and the old one (`--old`).
//
// The choice of JSON text over serde-wasm-bindgen values for `Session`
// results was measured with this script and methods added to furtive-wasm
// for that run only (numbers in docs/state.md).

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { serve, withPage } from "../tests/js/chromium.mjs";

const REPO = new URL("../", import.meta.url);
const args = process.argv.slice(2);
const oldRoot = args.includes("--old") ? args[args.indexOf("--old") + 1] : null;
const baseRoot = args.includes("--base") ? args[args.indexOf("--base") + 1] : null;
const quick = args.includes("--quick");

// Shared with the page as source text, so both sides measure the same way.
const MEASURE = `
const SIZES = QUICK ? [3, 20, 200] : [3, 20, 100, 200, 1000];
const NAMED = 150;
const median = (values) => { const s = [...values].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const id = (i) => "tok" + String(i).padStart(13, "0");
const config = (size) => ({
  ruleset: "opposed",
  creatures: Array.from({ length: size }, (_, i) => ({ id: id(i), side: i % 2 ? "watch" : "party", perceptionModifier: i % 7 })),
});
const hiders = (size) => Math.max(1, Math.floor(size / 4));
const enter = (i) => ({ type: "enterStealth", hider: id(i), roll: 15, moved: true });
/** A viewChanged of the first hider naming min(NAMED, size - 1) observers; \`clear(k)\`: whether the k-th comes into clear view. */
const viewWith = (size, clear) => ({
  type: "viewChanged", hider: id(0), moved: false,
  view: Array.from({ length: Math.min(NAMED, size - 1) }, (_, k) => ({ observer: id(k + 1), clearView: clear(k), distance: 5 })),
});
/** Every named observer comes into clear view: every pair changes (the worst case). */
const view = (size) => viewWith(size, () => true);
/** Nobody comes into clear view: no named pair changes. */
const viewNone = (size) => viewWith(size, () => false);
/** The first named observer comes into clear view, the others stay out of it (a typical token drag). */
const viewOne = (size) => viewWith(size, (k) => k === 0);
/** One user action over three hiders (a door opening in front of them): each hider's viewChanged naming min(NAMED, size - 1) observers, none coming into view. */
const threeNone = (size) =>
  Array.from({ length: Math.min(3, hiders(size)) }, (_, h) => ({
    type: "viewChanged", hider: id(h), moved: false,
    view: Array.from({ length: size }, (_, i) => i).filter((i) => i !== h).slice(0, NAMED).map((i) => ({ observer: id(i), clearView: false, distance: 5 })),
  }));
const reset = [{ type: "stopHiding", hider: id(0) }, enter(0)];
const query = { observer: id(1), hider: id(0) };

/** Median of single timed calls, \`setup\` untimed before each. */
function timeEach(setup, call, budgetMs = QUICK ? 400 : 1500, min = 5) {
  const samples = [];
  const start = performance.now();
  while (samples.length < min || (samples.length < 3000 && performance.now() - start < budgetMs)) {
    setup();
    const t0 = performance.now();
    call();
    samples.push((performance.now() - t0) * 1000);
  }
  return median(samples);
}

/** Median per call over batches of \`batch\` calls. */
function timeBatch(call, batch = 1000, budgetMs = QUICK ? 200 : 700) {
  const samples = [];
  const start = performance.now();
  while (samples.length < 5 || performance.now() - start < budgetMs) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) call();
    samples.push(((performance.now() - t0) * 1000) / batch);
  }
  return median(samples);
}

/** A session of \`size\` creatures, a quarter hiding. */
function table(api, size) {
  const session = api.Session.create(config(size));
  session.applyAll(Array.from({ length: hiders(size) }, (_, i) => enter(i)));
  return session;
}

/** The old engine reads state format 1: the same table, converted. */
function formatOne(state) {
  const hiders = {};
  for (const [hiderId, hider] of Object.entries(state.hiders)) {
    const pairs = {};
    for (const [observer, pair] of Object.entries(hider.pairs)) pairs[observer] = { ...pair, exposed: false };
    hiders[hiderId] = { ...hider, pairs, d100: null, score: null, modifiers: { free: [], situation: [] }, pendingModifiers: null, stale: false };
  }
  const { revision, ...rest } = state;
  return { ...rest, version: 1, hiders };
}

function sessionRows(api) {
  const rows = {};
  for (const size of SIZES) {
    const session = table(api, size);
    const event = view(size);
    const effects = session.apply(event);
    // One request per observer (older builds) or one naming them all.
    const asked = effects.requests.reduce((n, request) => n + (request.observers?.length ?? 1), 0);
    if (asked !== Math.min(NAMED, size - 1)) throw new Error("the event did not do the O4 work");
    // The floor under any binding: its caller receives these effects as
    // plain objects, and JSON.parse of their text is the fastest way this
    // runtime makes them.
    const effectsText = JSON.stringify(effects);
    const parseEffects = timeEach(() => {}, () => JSON.parse(effectsText));
    session.applyAll(reset);
    const apply = timeEach(() => session.applyAll(reset), () => session.apply(event));
    // The same call with its 150 explanations read (the package renders the
    // log when \`effects.log\` is first read; a GM card reads it).
    const applyRead = timeEach(() => session.applyAll(reset), () => session.apply(event).log.length);
    session.applyAll(reset);
    const none = viewNone(size);
    const noneEffects = session.apply(none);
    if (noneEffects.changes.length !== 0 || noneEffects.requests.length !== 0) throw new Error("the none event changed something");
    const applyNone = timeEach(() => {}, () => session.apply(none));
    const one = viewOne(size);
    session.applyAll(reset);
    if (session.apply(one).requests.length !== 1) throw new Error("the one event did not ask for one O4 check");
    const applyOne = timeEach(() => session.applyAll(reset), () => session.apply(one));
    const batch = threeNone(size);
    session.applyAll(batch);
    const applyAllNone = timeEach(() => {}, () => session.applyAll(batch));
    const perceives = timeBatch(() => session.perceives(query));
    rows[size] = { apply, applyRead, applyNone, applyOne, applyAllNone, perceives, parseEffects, effectsBytes: effectsText.length };
    session.free();
  }
  return rows;
}

function freeRows(api, old) {
  const rows = {};
  for (const size of SIZES) {
    const session = table(api, size);
    const state = old ? formatOne(session.snapshot()) : session.snapshot();
    session.free();
    const event = view(size);
    const engine = old ?? api;
    try {
      rows[size] = { apply: timeEach(() => {}, () => engine.apply(state, event), QUICK ? 400 : 1500, 3) };
    } catch (error) {
      rows[size] = { apply: "fails: " + (error?.code ?? "") + " " + String(error?.message ?? error).slice(0, 60) };
    }
  }
  return rows;
}`;
const compile = (source) => new Function("QUICK", `${source}; return { sessionRows, freeRows };`);
const measure = compile(MEASURE)(quick);

const results = { napi: {}, wasmNode: {}, chromium: {}, base: { napi: {}, wasmNode: {} } };

const napi = await import(new URL("npm/node.js", REPO));
if (napi.backend !== "napi") throw new Error("npm/node.js did not load the napi addon");
const wasm = await import(new URL("npm/browser.js", REPO));
const wasmBytes = await readFile(new URL("npm/wasm/furtive_wasm_bg.wasm", REPO));
await wasm.init(wasmBytes);

results.napi.session = measure.sessionRows(napi);
results.wasmNode.session = measure.sessionRows(wasm);
results.napi.free = measure.freeRows(napi, null);
results.wasmNode.free = measure.freeRows(wasm, null);

if (baseRoot) {
  const baseUrl = new URL(`file://${baseRoot.replace(/\/?$/, "/")}`);
  const baseNapi = await import(new URL("npm/node.js", baseUrl));
  const baseWasm = await import(new URL("npm/browser.js", baseUrl));
  await baseWasm.init(await readFile(new URL("npm/wasm/furtive_wasm_bg.wasm", baseUrl)));
  results.base.napi.session = measure.sessionRows(baseNapi);
  results.base.wasmNode.session = measure.sessionRows(baseWasm);
  results.base.napi.free = measure.freeRows(baseNapi, null);
  results.base.wasmNode.free = measure.freeRows(baseWasm, null);
}

if (oldRoot) {
  const oldUrl = new URL(`file://${oldRoot.replace(/\/?$/, "/")}`);
  const oldNapi = await import(new URL("npm/node.js", oldUrl));
  const oldWasm = await import(new URL("npm/browser.js", oldUrl));
  await oldWasm.init(await readFile(new URL("npm/wasm/furtive_wasm_bg.wasm", oldUrl)));
  results.napi.old = measure.freeRows(napi, oldNapi);
  results.wasmNode.old = measure.freeRows(wasm, oldWasm);
}

const server = await serve(fileURLToPath(REPO), {
  headers: { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" },
  mounts: { ...(oldRoot ? { "/old/": oldRoot } : {}), ...(baseRoot ? { "/base/": baseRoot } : {}) },
});
try {
  results.chromium = await withPage(server.origin, (page) =>
    page.evaluate(
      async ({ source, quick, old, base }) => {
        if (!crossOriginIsolated) throw new Error("the page is not cross-origin isolated: timings would be coarse");
        const measure = new Function("QUICK", `${source}; return { sessionRows, freeRows };`)(quick);
        const api = await import("/npm/browser.js");
        await api.init();
        const out = {
          session: measure.sessionRows(api),
          free: measure.freeRows(api, null),
        };
        if (base) {
          const baseApi = await import("/base/npm/browser.js");
          await baseApi.init();
          out.base = { session: measure.sessionRows(baseApi), free: measure.freeRows(baseApi, null) };
        }
        if (old) {
          const oldApi = await import("/old/npm/browser.js");
          await oldApi.init();
          out.old = measure.freeRows(api, oldApi);
        }
        return out;
      },
      { source: MEASURE, quick, old: Boolean(oldRoot), base: Boolean(baseRoot) },
    ),
  );
} finally {
  await server.close();
}

const µs = (x) => (x === undefined ? "" : typeof x === "string" ? x : x < 10 ? x.toFixed(2) : x < 1000 ? x.toFixed(1) : `${(x / 1000).toFixed(2)} ms`);
const sizes = Object.keys(results.napi.session).map(Number);
const line = (cells) => `| ${cells.join(" | ")} |`;
console.log(`\nOne viewChanged naming min(150, creatures - 1) observers (all coming into clear view; "none changes": none does; "one comes into view": the first does), opposed, a quarter hiding; median µs per call.\n`);
console.log(line(["creatures / hiders", ...sizes.map((n) => `${n} / ${Math.max(1, Math.floor(n / 4))}`)]));
console.log(line(["---", ...sizes.map(() => "---:")]));
const base = results.base;
const chromiumBase = results.chromium.base;
// Each Session row in every runtime, this build then the base.
const runtimes = [
  ["napi", results.napi, base.napi],
  ["wasm (Node)", results.wasmNode, base.wasmNode],
  ["wasm (Chromium)", results.chromium, chromiumBase],
];
const sessionRows = [
  ["Session.apply", "apply"],
  ["Session.apply, its log read", "applyRead"],
  ["Session.apply, none changes", "applyNone"],
  ["Session.apply, one comes into view", "applyOne"],
  ["Session.applyAll, three hiders' views, none changes", "applyAllNone"],
  ["Session.perceives", "perceives"],
];
const rows = [
  ...sessionRows.flatMap(([label, key]) =>
    runtimes.flatMap(([runtime, now, then]) => [
      [`${runtime} ${label}`, now.session, key],
      [`${runtime} ${label} (base)`, then?.session, key],
    ]),
  ),
  ...runtimes.flatMap(([runtime, now, then]) => [
    [`${runtime} free apply (new)`, now.free, "apply"],
    [`${runtime} free apply (base)`, then?.free, "apply"],
    [`${runtime} free apply (old${runtime === "napi" ? ", d42ade1" : ""})`, now.old, "apply"],
  ]),
];
for (const [name, data, key] of rows) {
  if (data) console.log(line([name, ...sizes.map((n) => µs(data[n]?.[key]))]));
}
// No engine in these two rows: JSON.parse of the text of the first row's
// effects (every named pair changes), the least any binding's caller pays
// to receive them as plain objects.
console.log(line(["effects of Session.apply (JSON text, characters)", ...sizes.map((n) => String(results.napi.session[n]?.effectsBytes ?? ""))]));
console.log(line(["JSON.parse of those effects alone, Node", ...sizes.map((n) => µs(results.napi.session[n]?.parseEffects))]));
console.log(line(["JSON.parse of those effects alone, Chromium", ...sizes.map((n) => µs(results.chromium.session?.[n]?.parseEffects))]));
if (results.napi.old) {
  const speedup = (data, old) => (old[20].apply / data[20].apply).toFixed(1);
  console.log(`\nfree apply at 20 creatures, old / new: napi ${speedup(results.napi.free, results.napi.old)}×, wasm in Node ${speedup(results.wasmNode.free, results.wasmNode.old)}×, wasm in Chromium ${speedup(results.chromium.free, results.chromium.old)}×`);
}
