/**
 * Benchmark (not a test): the cost of the `_canDetect` hot path per call,
 * through the REAL module wrapper installed on the fake Foundry's detection
 * mode, against a bare `Map<string, Set<string>>` lookup of the same pair.
 *
 * Run: node --experimental-vm-modules tests/foundry/bench-can-detect.mjs
 * (after scripts/build-foundry.sh). Prints the median ns/call over many
 * batches for:
 * - bare Map lookup: `lookup.get(observerId)?.has(targetId)` with the ids in hand;
 * - the same lookup reading the ids from the vision source and the target token
 *   (`source.object.document.id`, `target.document.id`: the unavoidable part);
 * - wrapper, hidden pair: the observer failed, the wrapper answers false from its Map;
 * - wrapper, pass-through pair: the lookup allows it, the original `_canDetect` runs
 *   (the fake's original alone is measured too, to isolate the wrapper's share);
 * each with libWrapper absent (direct wrap) and present (libWrapper MIXED).
 * Budget: median under 1 µs, and within 3x of the bare Map lookup.
 *
 * Every measured closure and the timing loop are compiled inside the client's
 * realm (the jsdom window's vm context the module runs in), so no call crosses
 * realms: the baseline and the wrapper pay the same loop and call overhead.
 */
import vm from "node:vm";

import { BOB, GM, TOKENS, hideRogue, setup, shutdown } from "./unit/world.mjs";

const BATCH = 20_000;
const BATCHES = 301;

const LOOP = `(fn, now, batch, batches) => {
  let sink = 0;
  for (let i = 0; i < batch * 5; i += 1) sink += fn() ? 1 : 0;
  const samples = [];
  for (let b = 0; b < batches; b += 1) {
    const start = now();
    for (let i = 0; i < batch; i += 1) sink += fn() ? 1 : 0;
    samples.push(Number(now() - start) / batch);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], sink };
}`;

async function run(libWrapper) {
  const env = await setup({ ruleset: "percentile", version: 13, libWrapper, users: [GM, BOB] });
  await hideRogue(env);
  const ctx = env.bob.ctx;
  const mode = ctx.CONFIG.Canvas.detectionModes.basicSight;
  const fighter = ctx.canvas.tokens.get(TOKENS.fighter);
  const rogue = ctx.canvas.tokens.get(TOKENS.rogue);
  const archer = ctx.canvas.tokens.get(TOKENS.archer);
  const source = fighter.vision;
  if (mode._canDetect(source, rogue) !== false || mode._canDetect(source, archer) !== true) throw new Error("unexpected answers: the wrapper is not in place");

  const realm = env.bob.dom.getInternalVMContext();
  const inRealm = (code) => vm.runInContext(code, realm);
  const loop = inRealm(LOOP);
  const now = () => process.hrtime.bigint();
  const measure = (fn) => loop(fn, now, BATCH, BATCHES).median;

  // The bare lookup the wrapper's answer amounts to, with the ids in hand.
  const lookup = inRealm("(entries) => { const m = new Map(); for (const [o, hs] of entries) m.set(o, new Set(hs)); return m; }")(ctx.game.scenes.viewed.getFlag("furtive", "visibility"));
  const bareLookup = inRealm("(lookup, o, h) => () => lookup.get(o)?.has(h)");
  const wrapped = inRealm("(mode, source, target) => () => mode._canDetect(source, target)");
  // The fake's original _canDetect (what the wrapper calls when it allows).
  const originalCall = inRealm("(original, mode, source, target) => () => original.call(mode, source, target)");
  const original = ctx.global.foundry.canvas.perception.DetectionModeDarkvision.prototype._canDetect;

  const results = {
    "bare Map lookup (hidden pair)": measure(bareLookup(lookup, TOKENS.fighter, TOKENS.rogue)),
    "bare Map lookup (pass-through pair)": measure(bareLookup(lookup, TOKENS.fighter, TOKENS.archer)),
    "Map lookup reading the ids from source/target objects": measure(inRealm("(lookup, source, target) => () => lookup.get(source.object.document.id)?.has(target.document.id)")(lookup, source, rogue)),
    "wrapper, hidden pair (answers false from the Map)": measure(wrapped(mode, source, rogue)),
    "wrapper, pass-through pair (then the original)": measure(wrapped(mode, source, archer)),
    "fake original _canDetect alone": measure(originalCall(original, mode, source, archer)),
  };
  shutdown(env);
  return results;
}

const report = [];
for (const libWrapper of [false, true]) {
  const results = await run(libWrapper);
  const bare = results["bare Map lookup (hidden pair)"];
  console.log(`\n_canDetect hot path, libWrapper ${libWrapper ? "present (MIXED)" : "absent (direct wrap)"}: median ns/call over ${BATCHES} batches of ${BATCH}`);
  for (const [name, ns] of Object.entries(results)) console.log(`  ${name.padEnd(52)} ${ns.toFixed(1).padStart(8)} ns`);
  const hidden = results["wrapper, hidden pair (answers false from the Map)"];
  const passThrough = results["wrapper, pass-through pair (then the original)"] - results["fake original _canDetect alone"];
  console.log(`  wrapper hidden / bare lookup: ${(hidden / bare).toFixed(2)}x; wrapper share of a pass-through call: ${passThrough.toFixed(1)} ns`);
  report.push({ libWrapper, hidden, bare, ratio: hidden / bare, passThrough });
}
const worst = report.reduce((a, b) => (b.hidden > a.hidden ? b : a));
console.log(`\nBudget: median < 1000 ns and <= 3x the bare lookup. Worst wrapper median ${worst.hidden.toFixed(1)} ns (${worst.ratio.toFixed(2)}x, libWrapper ${worst.libWrapper ? "present" : "absent"}).`);
