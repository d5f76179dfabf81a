/**
 * The module as Foundry loads an installed one (browser/install.test.mjs):
 * the fake Foundry server and one GM client, the module's files fetched
 * from /modules/furtive/ (the unzipped dist/furtive.zip in Data/modules/
 * furtive/), its styles and entry files taken from its module.json as
 * Foundry does. Then the GM hides the rogue through the module's API, which
 * runs the engine's wasm. `window.furtiveInstall` holds the outcome.
 */
import { FakeServer } from "../fake/server.mjs";
import { createClient } from "../fake/client.mjs";
import { GM, TOKENS, makeWorld } from "../fixtures/world-data.mjs";

const status = document.getElementById("status");
const base = new URL("/modules/furtive/", location.href).href;
try {
  const manifest = await (await fetch(new URL("module.json", base))).json();
  for (const style of manifest.styles ?? []) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(style, base).href;
    document.head.append(link);
  }
  const server = new FakeServer(makeWorld({ ruleset: "percentile" }), { version: 13, modules: [manifest] });
  const ctx = createClient({
    global: window,
    server,
    userId: GM,
    version: 13,
    lang: "en",
    packageBase: (id) => new URL(`/modules/${id}/`, location.href).href,
    fetchJson: async (url) => (await fetch(url)).json(),
    scheduleFrame: (fn) => requestAnimationFrame(fn),
  });
  let readyHook = false;
  ctx.Hooks.once("furtive.ready", () => (readyHook = true));
  await ctx.boot(async () => {
    for (const script of manifest.esmodules) await import(new URL(script, base).href);
  });
  const api = ctx.game.modules.get("furtive").api;
  await api.engineReady;
  await server.idle();
  // d100 83: Furtivité 61 + 83 / 2, against the observers' acuity sums.
  ctx.CONFIG.Dice.randomUniform = () => (83 - 0.5) / 100;
  await api.hide(ctx.canvas.tokens.get(TOKENS.rogue), { dialog: false });
  await server.idle();
  const hidden = ctx.canvas.tokens.get(TOKENS.rogue).document.hasStatusEffect("furtive.hidden");
  window.furtiveInstall = { ok: true, readyHook, hidden, version: ctx.game.modules.get("furtive").version ?? manifest.version };
} catch (error) {
  window.furtiveInstall = { ok: false, error: `${error?.stack ?? error}` };
}
status.textContent = JSON.stringify(window.furtiveInstall, null, 2);
