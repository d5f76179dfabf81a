/**
 * Benchmark (not a test): how long the GM's perception window takes to
 * open, and to patch one cell after an action, at 20 hiders by 100
 * observers, in the fake Foundry with the real module and the real wasm
 * engine (percentile ruleset, the test world plus NPC tokens).
 *
 * "Open" is from the call (`api.perceptionWindow()`) to the window in the
 * DOM with every cell: the engine's `pairs` query, the matrix, the
 * template, the DOM. "Patch" is one override's refresh: the `pairs` query
 * again and the one changed cell written (the action itself not counted).
 *
 * Run: node --experimental-vm-modules tests/foundry/bench-perception-window.mjs [runs]
 * (after scripts/build-foundry.sh). Prints the median and the slowest of
 * `runs` openings (default 15; the first, cold, is reported apart), their
 * median CPU time (the process's user + system time: on a shared machine
 * the wall time carries the others' work) and the load average, and writes
 * them into docs/performance.md's "Perception window" section.
 */
import fs from "node:fs";
import os from "node:os";

/** docs/performance.md's "Perception window" section, written from this run's figures. */
function writeSection(f) {
  const file = new URL("../../docs/performance.md", import.meta.url);
  const section = `## Perception window

The GM's perception window ("Furtive: who perceives whom",
\`foundry-module/scripts/ui/perception-window.mjs\`), written by
\`node --experimental-vm-modules tests/foundry/bench-perception-window.mjs\`
in the fake Foundry (jsdom, Node ${process.versions.node}) with the real module and the
module's own wasm build (\`scripts/build-foundry.sh\`), ${new Date().toISOString().slice(0, 10)},
on ${os.cpus().length} cores with a load average of ${f.loadAverage} when it ended (on a shared
machine the wall times carry the others' work; the CPU time is the opening's
own cost). The test world with more tokens: ${f.hiders} hiders by ${f.observers} observers,
${f.cells} cells.

| what | median | slowest | budget |
| --- | --- | --- | --- |
| open, wall time (the call to the window in the DOM with every cell), ${f.runs} openings | ${f.openMedianMs} ms | ${f.openSlowestMs} ms | 100 ms |
| open, CPU time of the process (user + system) | ${f.openCpuMedianMs} ms | | |
| open, first (cold), wall time | ${f.coldOpenMs} ms | | |
| one override's refresh, wall time (the \`pairs\` query again, one cell patched), 5 overrides | ${f.patchMedianMs} ms | | |

An opening is the engine's \`pairs\` query for the whole scene, the rows and
columns the filters keep, the template and the DOM; most of it is jsdom
building the cells. A cell is an empty \`<td>\` with its state as a class (the
stylesheet draws the mark); its words are written when it is hovered or
focused.

`;
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Performance\n\n";
  const start = text.indexOf("## Perception window");
  const next = start < 0 ? -1 : text.indexOf("\n## ", start + 1);
  const updated =
    start < 0 ? `${text.trimEnd()}\n\n${section}` : `${text.slice(0, start)}${section}${next < 0 ? "" : text.slice(next + 1)}`;
  fs.writeFileSync(file, updated.replace(/\n{3,}/g, "\n\n"));
}

const { GM, SCENE, TOKENS, apiOf, setup, shutdown } = await import("./unit/world.mjs");

const HIDERS = 20;
const OBSERVERS = 100;
const RUNS = Number(process.argv[2] ?? 15);

/** The test world with NPC tokens (unlinked guards) on a grid: 120 creatures in all. */
const extraTokens = (count) => (world) => {
  const scene = world.scenes.find((s) => s._id === SCENE);
  const template = scene.tokens.find((t) => t._id === TOKENS.guard);
  for (let i = 0; i < count; i += 1) {
    const id = `tokenExtra${String(i).padStart(6, "0")}`;
    scene.tokens.push({ ...structuredClone(template), _id: id, name: `Extra ${i}`, x: 100 * (i % 12), y: 100 * Math.floor(i / 12) });
  }
  scene.width = Math.max(scene.width ?? 1200, 1200);
  scene.height = Math.max(scene.height ?? 1000, 100 * Math.ceil(count / 12) + 100);
};

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const round = (ms) => Math.round(ms * 10) / 10;

const creatures = OBSERVERS; // the hiders are observers of each other too, as in play: 100 columns
const env = await setup({ ruleset: "percentile", users: [GM], world: extraTokens(creatures - Object.keys(TOKENS).length) });
try {
  const gm = env.gm;
  const api = apiOf(gm);
  const scene = gm.ctx.game.scenes.get(SCENE);
  const hiders = scene.tokens.contents.filter((t) => t.id.startsWith("tokenExtra")).slice(0, HIDERS).map((t) => t.id);
  for (const id of hiders) await api.hide(id, { dialog: false });
  await env.server.idle();

  const openOnce = async () => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const app = await api.perceptionWindow();
    const took = performance.now() - start;
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
    const cells = gm.window.document.querySelectorAll("#furtive-perception-window tbody td").length;
    return { app, took, cells };
  };
  /** The process's CPU time of each opening (user + system): what the opening costs, whatever else shares the machine. */
  const cpuTimes = [];
  const cold = await openOnce();
  const rows = gm.window.document.querySelectorAll("#furtive-perception-window tbody tr").length;
  const columns = gm.window.document.querySelectorAll("#furtive-perception-window th.furtive-pw-observer").length;
  await cold.app.close();
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const { app, took } = await openOnce();
    times.push(took);
    await app.close();
  }

  // One override's refresh, timed where the window runs it (after the action, in the queue).
  const app = await api.perceptionWindow();
  const patches = [];
  const refresh = app.refresh.bind(app);
  app.refresh = async () => {
    const start = performance.now();
    await refresh();
    patches.push({ took: performance.now() - start, patched: app.lastPatched.length });
  };
  for (let i = 0; i < 5; i += 1) {
    await api.override(hiders[0], TOKENS.fighter, i % 2 === 0);
    await env.server.idle();
    if (app.refreshing) await app.refreshing;
  }
  if (!patches.length || patches.some((p) => p.patched !== 1)) throw new Error(`each override patches one cell: ${JSON.stringify(patches)}`);
  const figures = {
    hiders: rows,
    observers: columns,
    cells: cold.cells,
    coldOpenMs: round(cold.took),
    openMedianMs: round(median(times)),
    openSlowestMs: round(Math.max(...times)),
    openCpuMedianMs: round(median(cpuTimes.slice(1))),
    loadAverage: round(os.loadavg()[0]),
    runs: RUNS,
    patchMedianMs: round(median(patches.map((p) => p.took))),
  };
  console.log(JSON.stringify(figures));
  writeSection(figures);
} finally {
  shutdown(env);
}
