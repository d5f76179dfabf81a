// Benchmarks of the two bindings (not tests: nothing here is asserted).
//
//   node bench/bindings.mjs        (after scripts/build.sh and npm ci in tests/js)
//
// Measures, as medians:
// - wasm instantiation in Node and in headless Chromium: compile + instantiate
//   + start from the bytes in memory, and instantiation alone from a compiled
//   module (a fresh copy of wasm-bindgen's glue each time);
// - the time of one small call through napi, wasm in Node and wasm in
//   Chromium: `apply` (enterStealth on a 3-creature percentile state) and
//   `perceives` (a query), each the median of 41 batches of 500 calls; the
//   same on a larger state (20 creatures, 5 of them hiding: 95 pairs).

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { serve, withPage } from "../tests/js/chromium.mjs";

const REPO = new URL("../", import.meta.url);
const wasmBytes = await readFile(new URL("npm/wasm/furtive_wasm_bg.wasm", REPO));

// Shared with the page as source text, so both sides measure the same way.
const MEASURE = `
const median = (values) => { const s = [...values].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const config = {
  ruleset: "percentile",
  creatures: [
    { id: "spy", stealthSkill: 49 },
    { id: "tie", acuities: { visual: 30, auditory: 20, olfactory: 17 } },
    { id: "low", acuities: { visual: 30, auditory: 20, olfactory: 16 } },
  ],
};
const event = { type: "enterStealth", hider: "spy", roll: 37 };
const largeConfig = {
  ruleset: "percentile",
  creatures: Array.from({ length: 20 }, (_, i) => ({
    id: "token" + i,
    name: "Token " + i,
    side: i < 5 ? "thieves" : "guards",
    stealthSkill: 40 + i,
    acuities: { visual: 10 + i, auditory: 20, olfactory: 5 },
  })),
};
function perCall(api) {
  const state = api.createState(config);
  const hidden = api.apply(state, event).state;
  const query = { observer: "tie", hider: "spy" };
  let large = api.createState(largeConfig);
  for (let i = 0; i < 5; i++) large = api.apply(large, { type: "enterStealth", hider: "token" + i, roll: 30 + i }).state;
  const largeEvent = { type: "gmOverride", hider: "token0", observer: "token10", perceived: true };
  const largeQuery = { observer: "token12", hider: "token3" };
  const time = (fn) => {
    const batches = [];
    for (let i = 0; i < 5; i++) fn(); // warm-up
    for (let b = 0; b < 41; b++) {
      const start = performance.now();
      for (let i = 0; i < 500; i++) fn();
      batches.push(((performance.now() - start) * 1000) / 500);
    }
    return median(batches);
  };
  return {
    applyMicros: time(() => api.apply(state, event)),
    perceivesMicros: time(() => api.perceives(hidden, query)),
    largeApplyMicros: time(() => api.apply(large, largeEvent)),
    largePerceivesMicros: time(() => api.perceives(large, largeQuery)),
    largeValues: JSON.stringify(large).length,
  };
}
async function instantiation(glueUrl, bytes) {
  const full = [];
  const instanceOnly = [];
  const module = await WebAssembly.compile(bytes);
  for (let i = 0; i < 21; i++) {
    const glue = await import(glueUrl + "?bench=full" + i);
    const start = performance.now();
    await glue.default({ module_or_path: bytes });
    full.push(performance.now() - start);
    const glue2 = await import(glueUrl + "?bench=instance" + i);
    const start2 = performance.now();
    glue2.initSync({ module });
    instanceOnly.push(performance.now() - start2);
  }
  return { compileInstantiateMs: median(full), instantiateMs: median(instanceOnly) };
}`;
const { perCall, instantiation } = new Function(`${MEASURE}; return { perCall, instantiation };`)();

const results = {};
results.node = {
  wasm: await instantiation(new URL("npm/wasm/furtive_wasm.js", REPO).href, wasmBytes),
};
const napi = await import(new URL("npm/node.js", REPO));
if (napi.backend !== "napi") throw new Error("npm/node.js did not load the napi addon");
results.node.napiCall = perCall(napi);
const wasm = await import(new URL("npm/browser.js", REPO));
await wasm.init(wasmBytes);
results.node.wasmCall = perCall(wasm);

const server = await serve(fileURLToPath(REPO));
try {
  results.chromium = await withPage(server.origin, (page) =>
    page.evaluate(async (source) => {
      const { perCall, instantiation } = new Function(`${source}; return { perCall, instantiation };`)();
      const bytes = new Uint8Array(await (await fetch("/npm/wasm/furtive_wasm_bg.wasm")).arrayBuffer());
      const wasm = await instantiation(new URL("/npm/wasm/furtive_wasm.js", location.href).href, bytes);
      const streamingStart = performance.now();
      const glue = await import("/npm/wasm/furtive_wasm.js?bench=streaming");
      await glue.default({ module_or_path: "/npm/wasm/furtive_wasm_bg.wasm" });
      wasm.fetchCompileInstantiateMs = performance.now() - streamingStart;
      const api = await import("/npm/browser.js");
      await api.init();
      return { wasm, wasmCall: perCall(api) };
    }, MEASURE),
  );
} finally {
  await server.close();
}

const size = wasmBytes.length;
const round = (x) => (typeof x === "number" ? Number(x.toFixed(x < 10 ? 2 : 1)) : x);
const table = [
  ["wasm size (bytes)", size],
  ["Node: wasm compile+instantiate from bytes (ms)", round(results.node.wasm.compileInstantiateMs)],
  ["Node: wasm instantiate a compiled module (ms)", round(results.node.wasm.instantiateMs)],
  ["Chromium: wasm compile+instantiate from bytes (ms)", round(results.chromium.wasm.compileInstantiateMs)],
  ["Chromium: wasm instantiate a compiled module (ms)", round(results.chromium.wasm.instantiateMs)],
  ["Chromium: fetch+streaming compile+instantiate, first (ms)", round(results.chromium.wasm.fetchCompileInstantiateMs)],
  ["napi: apply, per call (µs)", round(results.node.napiCall.applyMicros)],
  ["napi: perceives, per call (µs)", round(results.node.napiCall.perceivesMicros)],
  ["wasm in Node: apply, per call (µs)", round(results.node.wasmCall.applyMicros)],
  ["wasm in Node: perceives, per call (µs)", round(results.node.wasmCall.perceivesMicros)],
  ["wasm in Chromium: apply, per call (µs)", round(results.chromium.wasmCall.applyMicros)],
  ["wasm in Chromium: perceives, per call (µs)", round(results.chromium.wasmCall.perceivesMicros)],
  [`large state (20 creatures, 5 hiding; ${results.node.napiCall.largeValues} bytes of JSON):`, ""],
  ["napi: apply gmOverride, per call (µs)", round(results.node.napiCall.largeApplyMicros)],
  ["napi: perceives, per call (µs)", round(results.node.napiCall.largePerceivesMicros)],
  ["wasm in Node: apply gmOverride, per call (µs)", round(results.node.wasmCall.largeApplyMicros)],
  ["wasm in Node: perceives, per call (µs)", round(results.node.wasmCall.largePerceivesMicros)],
  ["wasm in Chromium: apply gmOverride, per call (µs)", round(results.chromium.wasmCall.largeApplyMicros)],
  ["wasm in Chromium: perceives, per call (µs)", round(results.chromium.wasmCall.largePerceivesMicros)],
];
for (const [what, value] of table) console.log(`${what.padEnd(60)} ${value}`);
