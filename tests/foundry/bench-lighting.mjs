/**
 * Benchmark (not a test): what the light test costs per move on
 * the GM in the fake Foundry with the real module and the real wasm engine, at
 * 200 tokens with 20 lights, the module before its light test (commit
 * 70c52b2, walls only) against this one in one run.
 *
 * Run: node --experimental-vm-modules tests/foundry/bench-lighting.mjs [oldModuleDir]
 * (after scripts/build-foundry.sh). Without `oldModuleDir`, the module of
 * commit 70c52b2 is exported with `git archive` and given THIS build's
 * `engine/`. Each is measured in a child process (FURTIVE_MODULE_DIR), old first.
 *
 * World (opposed): the test world plus 194 NPC tokens (200 tokens), 50 of
 * them hiding; the scene dark (darkness level 1, global light off), every
 * token without sight in darkness (sight range 0), 20 ambient lights of
 * 15 ft spread over the map (walls block light). Moves, each the average of
 * `MOVES` moves back and forth:
 * - an observer moves: every hider's view of it is tested (one light test per hider);
 * - a hider moves: its view by every observer (one light test);
 * - a token carrying a lantern moves: every hider against every observer.
 * Reported: wall ms per move (update to idle: module + fake + engine), light
 * tests per move (`canvas.effects.testInsideLight` + `testInsideDarkness`
 * calls on the GM) and the ms spent in them, light-collision tests per move
 * (the fake's cost of a light test: one `testCollision({type: "light"})` per
 * light in range), sight-collision tests per move.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const OLD_COMMIT = "70c52b2";
const MOVES = 10;

if (!process.env.FURTIVE_BENCH_CHILD) {
  let oldDir = process.argv[2];
  if (!oldDir) {
    const temp = mkdtempSync(path.join(tmpdir(), "furtive-old-"));
    execFileSync("bash", ["-c", `git -C ${JSON.stringify(repo)} archive ${OLD_COMMIT} foundry-module | tar -x -C ${JSON.stringify(temp)}`]);
    oldDir = path.join(temp, "foundry-module");
    cpSync(path.join(repo, "foundry-module/engine"), path.join(oldDir, "engine"), { recursive: true });
  }
  const results = {};
  for (const [label, dir] of [[`old (${OLD_COMMIT})`, oldDir], ["new", path.join(repo, "foundry-module")]]) {
    const run = spawnSync(process.execPath, ["--experimental-vm-modules", "--no-warnings", fileURLToPath(import.meta.url)], {
      env: { ...process.env, FURTIVE_BENCH_CHILD: "1", FURTIVE_MODULE_DIR: dir },
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
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
  const { GM, SCENE, TOKENS, apiOf, rig, setup, shutdown } = await import("./unit/world.mjs");

  /** 194 NPC tokens on a grid, a dark scene, no sight in darkness, 20 lights. */
  const world = (w) => {
    const scene = w.scenes.find((s) => s._id === SCENE);
    const template = scene.tokens.find((t) => t._id === TOKENS.guard);
    for (let i = 0; i < 194; i += 1) {
      scene.tokens.push({ ...structuredClone(template), _id: `tokenExtra${String(i).padStart(6, "0")}`, name: `Extra ${i}`, x: 100 * (i % 10), y: 100 * Math.floor(i / 10) });
    }
    scene.height = 100 * Math.ceil(194 / 10) + 100;
    for (const token of scene.tokens) token.sight = { enabled: true, range: 0 };
    scene.environment = { darknessLevel: 1, globalLight: { enabled: false } };
    scene.lights = Array.from({ length: 20 }, (_, i) => ({ _id: `lightBench${String(i).padStart(6, "0")}`, x: 250 + 500 * (i % 2), y: 50 + 100 * i, config: { dim: 15, bright: 5 } }));
  };

  /** Counts what the GM client does during `MOVES` moves (back and forth) of one token. */
  async function measureMoves(env, tokenId) {
    const gm = env.gm.ctx;
    const counts = { lightTests: 0, lightTestMs: 0, lightCollisions: 0, sightCollisions: 0 };
    const effects = gm.canvas.effects;
    const originals = { testInsideLight: effects.testInsideLight, testInsideDarkness: effects.testInsideDarkness };
    for (const name of Object.keys(originals)) {
      effects[name] = function (...args) {
        const started = performance.now();
        try {
          return originals[name].apply(this, args);
        } finally {
          counts.lightTestMs += performance.now() - started;
          counts.lightTests += 1;
        }
      };
    }
    const backends = gm.CONFIG.Canvas.polygonBackends;
    const collision = backends.sight.testCollision;
    // sight and light share the fake's ClockwiseSweepPolygon class: count by type.
    backends.sight.testCollision = function (origin, destination, config) {
      if (config?.type === "light") counts.lightCollisions += 1;
      else counts.sightCollisions += 1;
      return collision.call(this, origin, destination, config);
    };
    const token = gm.game.scenes.get(SCENE).tokens.get(tokenId);
    const start = { x: token.x, y: token.y };
    const started = performance.now();
    for (let i = 0; i < MOVES; i += 1) {
      await token.update(i % 2 === 0 ? { x: start.x + 100 } : { x: start.x });
      await env.server.idle();
    }
    const ms = performance.now() - started;
    backends.sight.testCollision = collision;
    Object.assign(effects, originals);
    const per = (n) => Math.round((n / MOVES) * 100) / 100;
    return { ms: per(ms), lightTests: per(counts.lightTests), lightTestMs: Math.round((counts.lightTestMs / MOVES) * 1000) / 1000, lightCollisions: per(counts.lightCollisions), sightCollisions: per(counts.sightCollisions) };
  }

  const env = await setup({ ruleset: "opposed", users: [GM], world });
  const scene = env.gm.ctx.game.scenes.get(SCENE);
  const extras = [...scene.tokens].map((t) => t.id).filter((id) => id.startsWith("tokenExtra"));
  const hiders = [TOKENS.rogue, TOKENS.archer, TOKENS.guard, ...extras.slice(0, 47)];
  for (const id of hiders) {
    rig(env.gm, [[20, 19]]);
    await apiOf(env.gm).hide(id, { dialog: false, moved: true });
    await env.server.idle();
  }
  rig(env.gm, Array.from({ length: 100000 }, () => [20, 2]));
  const observer = extras.find((id) => !hiders.includes(id));
  const bearer = extras.filter((id) => !hiders.includes(id) && id !== observer).at(-1);
  await scene.tokens.get(bearer).update({ light: { dim: 15 } });
  await env.server.idle();
  const out = {};
  for (const [label, id] of [["observer moves", observer], ["hider moves", TOKENS.rogue], ["lantern bearer moves", bearer]]) {
    const m = await measureMoves(env, id);
    out[`${label}: wall ms/move`] = m.ms;
    out[`${label}: light tests/move`] = m.lightTests;
    out[`${label}: ms in light tests/move`] = m.lightTestMs;
    out[`${label}: light collisions/move`] = m.lightCollisions;
    out[`${label}: sight collisions/move`] = m.sightCollisions;
  }
  shutdown(env);
  console.log(JSON.stringify(out));
  process.exit(0);
}
