/**
 * Benchmark (not a test): what one user action costs the GM in the
 * fake Foundry with the real module and the real wasm engine, old module
 * against new in one run.
 *
 * Run: node --experimental-vm-modules tests/foundry/bench-transactions.mjs [oldModuleDir]
 * (after scripts/build-foundry.sh). Without `oldModuleDir`, the module of
 * commit FURTIVE_BENCH_OLD_COMMIT (default 689f0e0, the module before one
 * action was one transaction; 70c52b2 is another baseline) is exported to a temporary
 * folder with `git archive` and given THIS build's `engine/` (so the old
 * column is the old module on today's engine); pass a folder holding the old
 * module with the engine it was built with to compare both. Each is measured
 * in a child process (FURTIVE_MODULE_DIR), old first.
 *
 * Scenarios (opposed ruleset, the test world plus extra NPC tokens):
 * - door: 3 hiders west of the closed door, 120 other tokens; the GM opens
 *   the door. Scene updates, chat messages created (the new module's GM-only
 *   state record is counted apart), wall time from the update to the world
 *   being idle (module + fake + engine), bytes the GM client sent.
 * - move: 200 tokens, 50 hiders; the GM moves one observer. Wall time, clear
 *   view tests (`testCollision` calls on the GM), Scene updates.
 * - save size: bytes the GM client sent for one Hide at 20 and 200 tokens.
 * - move with a long chat log: the move above with 5,000 earlier chat
 *   messages in the world (a table's evening of chat): module time, which
 *   should not grow with the chat log (storage/store.mjs finds a scene's record
 *   through its index, not by walking `game.messages`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
/** The old module: FURTIVE_BENCH_OLD_COMMIT (default 689f0e0, the module before one action was one transaction). */
const OLD_COMMIT = process.env.FURTIVE_BENCH_OLD_COMMIT ?? "689f0e0";

if (!process.env.FURTIVE_BENCH_CHILD) {
  let oldDir = process.argv[2];
  if (!oldDir) {
    const temp = mkdtempSync(path.join(tmpdir(), "furtive-old-"));
    execFileSync("bash", ["-c", `git -C ${JSON.stringify(repo)} archive ${OLD_COMMIT} foundry-module | tar -x -C ${JSON.stringify(temp)}`]);
    oldDir = path.join(temp, "foundry-module");
    cpSync(path.join(repo, "foundry-module/engine"), path.join(oldDir, "engine"), { recursive: true });
  }
  const results = {};
  const runs = [[`old (${process.argv[2] ?? OLD_COMMIT})`, oldDir], ["new", path.join(repo, "foundry-module")]].filter(([label]) => !process.env.FURTIVE_BENCH_ONLY || label.startsWith(process.env.FURTIVE_BENCH_ONLY));
  for (const [label, dir] of runs) {
    const run = spawnSync(process.execPath, ["--experimental-vm-modules", "--no-warnings", fileURLToPath(import.meta.url)], {
      env: { ...process.env, FURTIVE_BENCH_CHILD: "1", FURTIVE_MODULE_DIR: dir },
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    if (process.env.FURTIVE_BENCH_TOP) console.error(`== ${label}\n${run.stderr}`);
    if (run.status !== 0) {
      console.error(run.stderr);
      throw new Error(`${label} failed`);
    }
    results[label] = JSON.parse(run.stdout.trim().split("\n").at(-1));
  }
  console.table(
    Object.fromEntries(
      Object.keys(Object.values(results)[0]).map((metric) => [metric, Object.fromEntries(Object.entries(results).map(([label, r]) => [label, r[metric]]))]),
    ),
  );
} else {
  const { GM, DOOR, SCENE, TOKENS, apiOf, rig, setup, shutdown } = await import("./unit/world.mjs");

  /** Extra NPC tokens (unlinked guards), `count` of them on a grid over the map, both sides of the door. */
  const extraTokens = (count) => (world) => {
    const scene = world.scenes.find((s) => s._id === SCENE);
    const template = scene.tokens.find((t) => t._id === TOKENS.guard);
    for (let i = 0; i < count; i += 1) {
      const id = `tokenExtra${String(i).padStart(6, "0")}`;
      scene.tokens.push({ ...structuredClone(template), _id: id, name: `Extra ${i}`, x: 100 * (i % 10), y: 100 * Math.floor(i / 10) });
    }
    scene.width = Math.max(scene.width ?? 1000, 1000);
    scene.height = Math.max(scene.height ?? 1000, 100 * Math.ceil(count / 10) + 100);
  };

  /**
   * Time spent in the engine's `Session` methods on the GM (the new module;
   * the old one calls free functions, whose module exports cannot be wrapped:
   * reported as "n/a"). The class is shared by every session of the client.
   */
  async function engineClock(env) {
    const clock = { ms: 0, calls: 0, available: false };
    const url = new URL("engine/browser.js", `file://${process.env.FURTIVE_MODULE_DIR}/`).href;
    const engine = await env.gm.loader.import(url).catch(() => null);
    const Session = engine?.Session;
    if (!Session) return clock;
    clock.available = true;
    for (const name of ["apply", "applyAll", "hiddenFrom", "snapshot", "perceives", "canDefend", "knockout", "attackHidden"]) {
      const original = Session.prototype[name];
      if (typeof original !== "function") continue;
      Session.prototype[name] = function (...args) {
        const started = performance.now();
        try {
          return original.apply(this, args);
        } finally {
          clock.ms += performance.now() - started;
          clock.calls += 1;
        }
      };
    }
    return clock;
  }

  /**
   * CPU time of the process during an action, from V8's sampling profiler
   * (node:inspector, `Profiler.start`/`stop`, 50 µs samples), by whose code
   * was running. The bench world has the GM client only, so every module
   * frame is the GM's. Self time: the sample's top frame is in
   * - `module`: the module's scripts (FURTIVE_MODULE_DIR/scripts),
   * - `engine`: its engine glue (FURTIVE_MODULE_DIR/engine/*.js) and the wasm,
   * - `fake`: the fake Foundry (tests/foundry/fake: server and client),
   * - `other`: jsdom, Handlebars, jQuery, Node internals, GC, the profiler's
   *   own "(program)"; `(idle)` (waiting on timers) is not counted.
   * The four are scaled down to the process's CPU time when their sum is
   * larger (a loaded machine), see below.
   * (Inclusive time, a module frame anywhere on the stack, is not reported:
   * V8 keeps an async function's frame on samples taken after it awaited, so
   * it overstated the module several times over; FURTIVE_BENCH_TOP prints it
   * per function, to find where to look, not as a measure.)
   */
  async function profiled(action, label = "") {
    const { Session: InspectorSession } = await import("node:inspector/promises");
    const session = new InspectorSession();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 50 });
    await session.post("Profiler.start");
    const cpuBefore = process.cpuUsage();
    await action();
    const cpuUsed = process.cpuUsage(cpuBefore);
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    const moduleRoot = `file://${path.resolve(process.env.FURTIVE_MODULE_DIR)}/`;
    const fakeRoot = `file://${path.join(here, "fake")}/`;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const kindOf = (node) => {
      const { url, functionName } = node.callFrame;
      if (functionName === "(idle)") return "idle";
      if (url.startsWith("wasm://") || url.startsWith(`${moduleRoot}engine/`)) return "engine";
      if (url.startsWith(moduleRoot)) return "module";
      if (url.startsWith(fakeRoot)) return "fake";
      return "other";
    };
    const ms = { module: 0, engine: 0, fake: 0, other: 0, idle: 0 };
    profile.samples.forEach((id, index) => {
      const delta = (profile.timeDeltas[index + 1] ?? 0) / 1000;
      const kind = kindOf(byId.get(id));
      ms[kind] += delta;
    });
    // The samples measure time on the main thread, descheduled time included
    // (the next sample gets it): on a loaded machine they overstate the CPU.
    // Scaled down to the process's CPU time (process.cpuUsage) when smaller.
    const busy = ms.module + ms.engine + ms.fake + ms.other;
    const cpuMs = (cpuUsed.user + cpuUsed.system) / 1000;
    const scale = busy > cpuMs ? cpuMs / busy : 1;
    for (const key of ["module", "engine", "fake", "other"]) ms[key] *= scale;
    ms.processCpu = cpuMs;
    for (const key of Object.keys(ms)) ms[key] = Math.round(ms[key] * 10) / 10;
    if (process.env.FURTIVE_BENCH_TOP) {
      // Inclusive time per module function (stderr): where to look first.
      const inclusive = new Map();
      profile.samples.forEach((id, index) => {
        const delta = (profile.timeDeltas[index + 1] ?? 0) / 1000;
        const seen = new Set();
        for (let at = id; at !== undefined; at = parent.get(at)) {
          const { url, functionName, lineNumber } = byId.get(at).callFrame;
          if (!url.startsWith(moduleRoot) && !url.startsWith("wasm://") && !process.env.FURTIVE_BENCH_ALL) continue;
          const name = `${functionName || "(anonymous)"} ${url.replace(moduleRoot, "")}:${lineNumber + 1}`;
          if (seen.has(name)) continue;
          seen.add(name);
          inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
        }
      });
      const self = new Map();
      profile.samples.forEach((id, index) => {
        const { url, functionName, lineNumber } = byId.get(id).callFrame;
        const name = `${functionName || "(anonymous)"} ${url.replace(moduleRoot, "")}:${lineNumber + 1}`;
        self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000);
      });
      console.error(`-- ${label}: self time by function`);
      console.error([...self].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([name, t]) => `${t.toFixed(1).padStart(7)} ms  ${name}`).join("\n"));
      console.error(`-- ${label}: inclusive (module frames)`);
      console.error([...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.FURTIVE_BENCH_TOP) || 25).map(([name, t]) => `${t.toFixed(1).padStart(7)} ms  ${name}`).join("\n"));
    }
    return ms;
  }

  /**
   * Counts what the GM client does during `action`; with `profile`, also
   * splits the CPU time by whose code ran (the profiler slows the run, so
   * the wall time of a profiled run is not reported).
   */
  async function measure(env, action, { profile = false } = {}) {
    const gm = env.gm.ctx;
    const clock = await engineClock(env);
    const counts = { sceneUpdates: 0, chatMessages: 0, stateRecords: 0, clearViewTests: 0, bytesSent: 0 };
    const onScene = () => (counts.sceneUpdates += 1);
    const onChat = (message) => (["state", "stateDelta"].includes(message.getFlag?.("furtive", "kind")) ? (counts.stateRecords += 1) : (counts.chatMessages += 1));
    gm.Hooks.on("updateScene", onScene);
    gm.Hooks.on("createChatMessage", onChat);
    const backend = gm.CONFIG.Canvas.polygonBackends.sight;
    const test = backend.testCollision;
    backend.testCollision = function (...args) {
      counts.clearViewTests += 1;
      return test.apply(this, args);
    };
    const receive = env.server.receive.bind(env.server);
    const gmConnections = new Set([...env.server.connections].filter(([, c]) => c.userId === GM).map(([id]) => id));
    counts.recordBytes = 0;
    env.server.receive = (id, json) => {
      if (gmConnections.has(id)) {
        counts.bytesSent += json.length;
        // The state record's own bytes (the new module: a base or a delta message; the old one: its setting).
        const message = JSON.parse(json);
        for (const data of [message.data, ...(Array.isArray(message.data) ? message.data : [])]) {
          const raw = data?.flags?.furtive?.raw;
          if (typeof raw === "string") counts.recordBytes += raw.length;
        }
        if (message.op === "setting" && /gmState/.test(json)) counts.recordBytes += json.length;
      }
      return receive(id, json);
    };
    const started = performance.now();
    const run = async () => {
      await action();
      await env.server.idle();
    };
    if (profile) counts.cpu = await profiled(run, profile);
    else await run();
    counts.ms = Math.round(performance.now() - started);
    counts.engineMs = clock.available ? Math.round(clock.ms * 10) / 10 : "n/a";
    env.server.receive = receive;
    backend.testCollision = test;
    gm.Hooks.off?.("updateScene", onScene);
    gm.Hooks.off?.("createChatMessage", onChat);
    return counts;
  }

  /** Hides tokens with `dialog: false` (opposed: moved). */
  async function hideAll(env, ids) {
    for (const id of ids) {
      rig(env.gm, [[20, 19]]);
      await apiOf(env.gm).hide(id, { dialog: false, moved: true });
      await env.server.idle();
    }
  }

  /**
   * Runs a scenario twice on fresh worlds: once plain (counts, wall time),
   * once under the profiler (CPU time by whose code ran).
   */
  async function twice(prepare, act, label) {
    const plainEnv = await prepare();
    const plainRun = await measure(plainEnv, () => act(plainEnv));
    shutdown(plainEnv);
    // The CPU split: the median of FURTIVE_BENCH_RUNS profiled runs (default 3; samples are noisy).
    const runs = [];
    for (let i = 0; i < Math.max(1, Number(process.env.FURTIVE_BENCH_RUNS ?? 3)); i += 1) {
      const env = await prepare();
      runs.push((await measure(env, () => act(env), { profile: label })).cpu);
      shutdown(env);
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const cpu = Object.fromEntries(Object.keys(runs[0]).map((key) => [key, median(runs.map((r) => r[key]))]));
    cpu.moduleSelf = median(runs.map((r) => r.module + r.engine));
    return { ...plainRun, cpu };
  }
  const round = (value) => Math.round(value * 10) / 10;

  const out = {};
  {
    const door = await twice(
      async () => {
        const env = await setup({ ruleset: "opposed", users: [GM], world: extraTokens(120) });
        await hideAll(env, [TOKENS.rogue, TOKENS.archer, TOKENS.guard]);
        rig(env.gm, Array.from({ length: 2000 }, () => [20, 2]));
        return env;
      },
      (env) => env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 }),
      "door",
    );
    Object.assign(out, {
      "door: Scene updates": door.sceneUpdates,
      "door: chat messages": door.chatMessages,
      "door: state records": door.stateRecords,
      "door: wall ms (module + fake + engine)": door.ms,
      "door: module ms (CPU, self: scripts + engine, median)": round(door.cpu.moduleSelf),
      "door:   of which the engine (wasm + glue)": door.cpu.engine,
      "door: fake Foundry ms (CPU, self)": door.cpu.fake,
      "door: other ms (CPU: jsdom, Node, GC)": door.cpu.other,
      "door: engine ms (Session calls)": door.engineMs,
      "door: bytes sent by GM": door.bytesSent,
      "door: bytes of the save": door.recordBytes,
    });
  }
  /**
   * The 200/50 move: 200 tokens, 50 of them hiding; the GM moves one
   * observer, whose Perception checks succeed (its lookup entry changes:
   * one Scene update). `world` edits the world data (at least the extra tokens).
   */
  async function moveScenario(world, label) {
    let observer;
    return twice(
      async () => {
        const env = await setup({ ruleset: "opposed", users: [GM], world });
        const scene = env.gm.ctx.game.scenes.get(SCENE);
        const hiders = [TOKENS.rogue, TOKENS.archer, TOKENS.guard, ...[...scene.tokens].map((t) => t.id).filter((id) => id.startsWith("tokenExtra")).slice(0, 47)];
        await hideAll(env, hiders);
        observer = [...scene.tokens].map((t) => t.id).find((id) => id.startsWith("tokenExtra") && !hiders.includes(id));
        rig(env.gm, Array.from({ length: 2000 }, () => [20, 20]));
        return env;
      },
      (env) => env.gm.ctx.game.scenes.get(SCENE).tokens.get(observer).update({ x: 150 }),
      label,
    );
  }
  {
    const move = await moveScenario(extraTokens(194), "move");
    Object.assign(out, {
      "move (200/50): wall ms (module + fake + engine)": move.ms,
      "move: module ms (CPU, self: scripts + engine, median)": round(move.cpu.moduleSelf),
      "move:   of which the engine (wasm + glue)": move.cpu.engine,
      "move: fake Foundry ms (CPU, self)": move.cpu.fake,
      "move: other ms (CPU: jsdom, Node, GC)": move.cpu.other,
      "move: engine ms (Session calls)": move.engineMs,
      "move: clear-view tests": move.clearViewTests,
      "move: Scene updates": move.sceneUpdates,
      "move: chat messages": move.chatMessages,
      "move: bytes of the save": move.recordBytes,
    });
  }
  {
    // The same move with 5,000 earlier chat messages in the world.
    const move = await moveScenario((world) => {
      extraTokens(194)(world);
      for (let i = 0; i < 5000; i += 1) {
        world.messages.push({ _id: `chatTalk${String(i).padStart(8, "0")}`, author: GM, content: `<p>table talk ${i}</p>`, whisper: [], flags: {}, timestamp: i });
      }
    }, "move-chat");
    Object.assign(out, {
      "move, 5,000 chat messages: wall ms": move.ms,
      "move, 5,000 chat messages: module ms (CPU, self, median)": round(move.cpu.moduleSelf),
      "move, 5,000 chat messages: fake Foundry ms (CPU, self; getFlag is Foundry's)": move.cpu.fake,
      "move, 5,000 chat messages: other ms (CPU)": move.cpu.other,
    });
  }
  for (const extra of [14, 194]) {
    const env = await setup({ ruleset: "opposed", users: [GM], world: extraTokens(extra) });
    await hideAll(env, [TOKENS.archer]);
    rig(env.gm, [[20, 19]]);
    const hide = await measure(env, () => apiOf(env.gm).hide(TOKENS.rogue, { dialog: false, moved: true }));
    out[`save at ${extra + 6} tokens: bytes sent by GM`] = hide.bytesSent;
    out[`save at ${extra + 6} tokens: bytes of the save`] = hide.recordBytes;
    shutdown(env);
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}
