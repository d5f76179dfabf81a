/**
 * One client in an iframe, or in a tab of its own opened by the scenario page
 * (a freshly loaded player tab: `window.opener` holds the server): installs
 * the fake Foundry globals on this window, loads the real module (module.json
 * esmodules) and draws the canvas: every token this user's canvas shows, when
 * the canvas is drawn (`canvasReady`: the visibility the fake's canvas draw
 * gave each token, on screen until the next frame) and at each frame (the
 * `fake.frame` hook). Each paint's drawn token ids are logged in
 * `window.furtivePaints`, for the tests.
 */
import { createClient } from "../fake/client.mjs";

const userId = new URLSearchParams(location.search).get("user");
/** The world's Foundry generation, as the scenario page serves it (13 by default). */
const version = Number(new URLSearchParams(location.search).get("version") ?? 13);
const host = window.opener ?? window.parent;
const server = host.furtiveServer;
const manifest = await (await fetch("/foundry-module/module.json")).json();
const ctx = createClient({
  global: window,
  server,
  userId,
  version,
  lang: "en",
  packageBase: (id) => new URL(id === "furtive" ? "/foundry-module/" : `/modules/${id}/`, location.href).href,
  fetchJson: async (url) => (await fetch(url)).json(),
  scheduleFrame: (fn) => requestAnimationFrame(fn),
});
window.furtiveCtx = ctx;

const board = document.getElementById("board");
const scale = 0.5;
/** @type {string[][]} ids of the tokens drawn, one entry per paint. */
window.furtivePaints = [];
/** @type {string[][]} the light and darkness sources drawn (`Token.<id>`, `AmbientLight.<id>`), one entry per paint. */
window.furtiveGlows = [];
/** @type {string[][]} ids of the tokens whose ruler (movement path) is drawn, one entry per paint. */
window.furtiveRulers = [];
function draw() {
  const drawn = [];
  const g = board.getContext("2d");
  g.fillStyle = "#2f3a2f";
  g.fillRect(0, 0, board.width, board.height);
  // Light and darkness sources (canvas.effects): a glow of their radius.
  const glows = [];
  for (const [id, source] of [...ctx.canvas.effects.lightSources.entries(), ...ctx.canvas.effects.darknessSources.entries()]) {
    if (!source.active) continue;
    glows.push(id);
    const { x, y, radius } = source.data;
    const gradient = g.createRadialGradient(x * scale, y * scale, 0, x * scale, y * scale, radius * scale);
    gradient.addColorStop(0, source.isDarkness ? "rgba(0, 0, 0, 0.85)" : "rgba(255, 210, 90, 0.8)");
    gradient.addColorStop(1, source.isDarkness ? "rgba(0, 0, 0, 0)" : "rgba(255, 210, 90, 0)");
    g.fillStyle = gradient;
    g.beginPath();
    g.arc(x * scale, y * scale, radius * scale, 0, Math.PI * 2);
    g.fill();
  }
  window.furtiveGlows.push(glows);
  // Token rulers (CONFIG.Token.rulerClass): the movement path, from centre to centre.
  const rulers = [];
  for (const token of ctx.canvas.tokens.placeables) {
    if (!token.ruler?.visible || !token.ruler.path) continue;
    rulers.push(token.id);
    const [from, to] = token.ruler.path;
    const half = token.w / 2;
    g.strokeStyle = "#ffeb3b";
    g.lineWidth = 4;
    g.setLineDash([10, 6]);
    g.beginPath();
    g.moveTo((from.x + half) * scale, (from.y + half) * scale);
    g.lineTo((to.x + half) * scale, (to.y + half) * scale);
    g.stroke();
    g.setLineDash([]);
  }
  window.furtiveRulers.push(rulers);
  g.strokeStyle = "#ddd";
  g.lineWidth = 4;
  for (const wall of ctx.canvas.walls.placeables) {
    const [x0, y0, x1, y1] = wall.document.c;
    g.strokeStyle = wall.isDoor ? (wall.isOpen ? "#6c6" : "#c93") : "#ddd";
    g.beginPath();
    g.moveTo(x0 * scale, y0 * scale);
    g.lineTo(x1 * scale, y1 * scale);
    g.stroke();
  }
  for (const token of ctx.canvas.tokens.placeables) {
    const { x, y } = token.center;
    const hidden = token.document.hasStatusEffect("furtive.hidden");
    if (!token.visible) continue;
    drawn.push(token.id);
    g.beginPath();
    g.arc(x * scale, y * scale, 22, 0, Math.PI * 2);
    g.fillStyle = token.document.disposition === 1 ? "#3a7bd5" : "#c0392b";
    g.globalAlpha = hidden ? 0.5 : 1;
    g.fill();
    g.globalAlpha = 1;
    if (hidden) {
      g.setLineDash([4, 3]);
      g.strokeStyle = "#fff";
      g.lineWidth = 2;
      g.stroke();
      g.setLineDash([]);
    }
    g.fillStyle = "#fff";
    g.font = "12px sans-serif";
    g.textAlign = "center";
    g.fillText(token.name + (hidden ? " (hidden)" : ""), x * scale, y * scale + 36);
  }
  g.fillStyle = "#fff";
  g.textAlign = "left";
  g.fillText(`${ctx.game.user.name}: ${ctx.canvas.tokens.placeables.filter((t) => t.visible).length} tokens visible`, 8, 16);
  window.furtivePaints.push(drawn);
}
ctx.Hooks.on("canvasReady", draw);
ctx.Hooks.on("fake.frame", draw);
// Redraw when a status icon changes (the fake does not refresh perception for ordinary statuses).
for (const hook of ["createActiveEffect", "deleteActiveEffect"]) ctx.Hooks.on(hook, () => requestAnimationFrame(draw));

await ctx.boot(async () => {
  for (const script of manifest.esmodules) await import(new URL(`/foundry-module/${script}`, location.href).href);
});
await ctx.game.modules.get("furtive").api.engineReady;
ctx.canvas.perception.update({ refreshVision: true });
window.furtiveClientReady = true;
host.postMessage({ furtiveClientReady: userId }, "*");
