// The event bench/engine.mjs times, and its timing loop: one module that
// Node imports from disk and the Chromium page imports over HTTP, so both
// runtimes build the same table, ids and events and time them alike.
// Plain ECMAScript (no Node or DOM API but `performance.now()`).
//
// The event: one `viewChanged` of the first hider naming 150 observers, in
// a table of `size` creatures (`opposed`, a quarter of them hiding with a
// held total of 15; ids of 16 characters like Foundry's), through
// `Session.apply`, the effects' log read. The first hider entered stealth
// with the 150 observers out of clear view at 5 ft. `clear`: each named
// observer comes into clear view (one O4 request naming the 150); otherwise each is named
// again as it is (a plain drag). Between two timed calls the hider is put
// back (`applyAll([stopHiding, enterStealth])`, untimed).

export const NAMED = 150;
/**
 * The `i`th token id: 16 letters and digits drawn at random, as Foundry's
 * `foundry.utils.randomID()` makes them, from a fixed seed so every run
 * and both builds see the same ids.
 * https://foundryvtt.com/api/v14/functions/foundry.utils.randomID.html
 */
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const ids = [];
let seed = 0x9e3779b9;
const random = () => {
  // xorshift32
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
export const id = (i) => {
  while (ids.length <= i) ids.push(Array.from({ length: 16 }, () => ALPHANUMERIC[Math.floor(random() * 62)]).join(""));
  return ids[i];
};
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const config = (size) => ({
  ruleset: "opposed",
  creatures: Array.from({ length: size }, (_, i) => ({ id: id(i), side: i % 2 ? "watch" : "party", perceptionModifier: i % 7 })),
});
export const enter = (i) => ({ type: "enterStealth", hider: id(i), roll: 15, moved: true });
export const named = (size, clear) =>
  Array.from({ length: Math.min(NAMED, size - 1) }, (_, k) => ({ observer: id(k + 1), clearView: clear, distance: 5 }));
export const view = (size, clear) => ({ type: "viewChanged", hider: id(0), moved: false, view: named(size, clear) });
export const reset = (size) => [{ type: "stopHiding", hider: id(0) }, { ...enter(0), view: named(size, false) }];

/** The median µs of `Session.apply(view)` with its log read, in a table of `size`. */
export function applyTime(api, size, clear, budgetMs = 2500) {
  const session = api.Session.create(config(size));
  for (let i = 0; i < Math.max(1, Math.floor(size / 4)); i++) session.apply(enter(i));
  const event = view(size, clear);
  const samples = [];
  const start = performance.now();
  while (samples.length < 15 || (samples.length < 2000 && performance.now() - start < budgetMs)) {
    session.applyAll(reset(size));
    const t0 = performance.now();
    const effects = session.apply(event);
    void effects.log.length;
    samples.push((performance.now() - t0) * 1000);
  }
  session.free();
  return median(samples);
}
