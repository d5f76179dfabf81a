// The engine's speed and size, an old build against this one in one run,
// written to docs/performance.md (its "Engine" section). Not a test.
//
//   bash bench/engine.sh [old-commit]      # builds both, then runs this
//   node bench/engine.mjs OLD_DIR          # both already built
//
// OLD_DIR is a checkout of the old commit with its builds in place (its
// npm/ addon and wasm, foundry-module/engine/); this repository holds the
// new ones (scripts/build.sh and scripts/build-foundry.sh).
//
// The event (bench/engine-event.mjs): one `viewChanged` of the first hider
// naming 150 observers, in a table of 200 (or 1,000) creatures (`opposed`,
// a quarter of them hiding with a held total of 15; ids of 16 characters
// like Foundry's), through `Session.apply`, the effects' log read. The
// first hider entered stealth with the 150 observers out of clear view at
// 5 ft. "every pair": each named observer comes into clear view (one O4
// request naming the 150); "no pair changes": each is named again as it is (a plain
// drag). Between two timed calls the hider is put back
// (`applyAll([stopHiding, enterStealth])`, untimed). The median of single
// timed calls. "One Foundry action": the module's own CPU time for a move
// and a door in the fake Foundry (tests/foundry/bench-transactions.mjs),
// each module with its own engine.
//
// The wasm builds are timed in Node and in headless Chromium, where the
// Foundry module's wasm runs at the table: a cross-origin isolated page
// (COOP/COEP headers, so `performance.now()` is precise to 5 µs, not
// 100 µs) served from this repository (/new/) and OLD_DIR (/old/), with
// tests/js's server and playwright-core (`npm ci` in tests/js first).
// Without /usr/bin/chromium or playwright-core those rows are skipped.

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { applyTime, median, view } from "./engine-event.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const oldDir = path.resolve(process.argv[2] ?? "");
if (!process.argv[2]) {
  console.error("usage: node bench/engine.mjs OLD_DIR (see bench/engine.sh)");
  process.exit(2);
}

/**
 * The median µs of reading that event alone: `Session.apply` in an empty
 * table, where it is refused (`unknown_token`) once it is read.
 */
function readTime(api, budgetMs = 1500) {
  const session = api.Session.create({ ruleset: "opposed", creatures: [] });
  const event = view(200, true);
  const samples = [];
  const start = performance.now();
  while (samples.length < 15 || (samples.length < 2000 && performance.now() - start < budgetMs)) {
    const t0 = performance.now();
    try {
      session.apply(event);
    } catch (error) {
      if (error.code !== "unknown_token") throw error;
    }
    samples.push((performance.now() - t0) * 1000);
  }
  session.free();
  return median(samples);
}

async function wasmApi(browserJs, wasmFile) {
  const api = await import(browserJs);
  await api.init(readFileSync(wasmFile));
  return api;
}

async function napiApi(root) {
  const api = await import(path.join(root, "npm/node.js"));
  if (api.backend !== "napi") throw new Error(`${root}: npm/node.js runs ${api.backend}, not napi`);
  return api;
}

const gzipped = (file) => Number(execFileSync("bash", ["-c", `gzip -9 -c '${file}' | wc -c`]).toString().trim());

const builds = {};
for (const [name, root] of [["old", oldDir], ["new", repo]]) {
  builds[name] = {
    napi: await napiApi(root),
    npmWasm: await wasmApi(path.join(root, "npm/browser.js"), path.join(root, "npm/wasm/furtive_wasm_bg.wasm")),
    foundryWasm: await wasmApi(path.join(root, "foundry-module/engine/browser.js"), path.join(root, "foundry-module/engine/wasm/furtive_wasm_bg.wasm")),
    foundrySize: gzipped(path.join(root, "foundry-module/engine/wasm/furtive_wasm_bg.wasm")),
    npmSize: gzipped(path.join(root, "npm/wasm/furtive_wasm_bg.wasm")),
  };
}

/** tests/foundry/bench-transactions.mjs's figures for the module in `root` (its engine in engine/), in the fake Foundry. */
function foundryAction(root) {
  const run = spawnSync(process.execPath, ["--experimental-vm-modules", "--no-warnings", path.join(repo, "tests/foundry/bench-transactions.mjs")], {
    cwd: path.join(repo, "tests/foundry"),
    env: { ...process.env, FURTIVE_BENCH_CHILD: "1", FURTIVE_MODULE_DIR: path.join(root, "foundry-module") },
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (run.status !== 0) throw new Error(`bench-transactions failed for ${root}:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1));
}
for (const [name, root] of [["old", oldDir], ["new", repo]]) builds[name].action = foundryAction(root);

/**
 * Runs `fn(page)` in headless Chromium on a cross-origin isolated page that
 * has loaded the old and new builds' wasm as their users load them
 * (`window.furtiveBench`). Resolves to Chromium's version, or to `null`
 * (saying why on stderr and in `chromiumSkipped`) when Chromium or
 * playwright-core is missing.
 */
let chromiumSkipped = null;
async function inChromium(fn) {
  const CHROMIUM = "/usr/bin/chromium";
  if (!existsSync(CHROMIUM)) chromiumSkipped = `${CHROMIUM} is missing`;
  let chromium;
  if (!chromiumSkipped) {
    try {
      chromium = await import("../tests/js/chromium.mjs");
    } catch (error) {
      if (error.code !== "ERR_MODULE_NOT_FOUND") throw error;
      chromiumSkipped = `tests/js's packages are not installed (cd tests/js && npm ci): ${error.message}`;
    }
  }
  if (chromiumSkipped) {
    console.error(`Chromium rows skipped: ${chromiumSkipped}`);
    return null;
  }
  const server = await chromium.serve(repo, {
    headers: { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" },
    mounts: { "/old/": oldDir, "/new/": repo },
  });
  try {
    return await chromium.withPage(server.origin, async (page) => {
      const version = await page.evaluate(async () => {
        if (!crossOriginIsolated) throw new Error("the page is not cross-origin isolated: performance.now() would be coarsened to 100 µs");
        const { applyTime } = await import("/new/bench/engine-event.mjs");
        const apis = {};
        for (const name of ["old", "new"]) {
          // As foundry-module/scripts/engine.mjs loads its engine.
          const foundryWasm = await import(`/${name}/foundry-module/engine/browser.js`);
          await foundryWasm.init(fetch(`/${name}/foundry-module/engine/wasm/furtive_wasm_bg.wasm`));
          // As the npm package's browser users do: init() fetches wasm/ next to browser.js.
          const npmWasm = await import(`/${name}/npm/browser.js`);
          await npmWasm.init();
          apis[name] = { foundryWasm, npmWasm };
        }
        window.furtiveBench = { applyTime, apis };
        const { fullVersionList } = await navigator.userAgentData.getHighEntropyValues(["fullVersionList"]);
        return fullVersionList.find((brand) => /Chrom/.test(brand.brand))?.version ?? navigator.userAgent;
      });
      if (page.furtiveErrors.length > 0) throw new Error(`the Chromium page failed:\n${page.furtiveErrors.join("\n")}`);
      console.error(`Chromium ${version}, Node ${process.version}`);
      // Warm up each build once, untimed.
      await page.evaluate(() => {
        for (const name of ["old", "new"]) for (const api of ["npmWasm", "foundryWasm"]) window.furtiveBench.applyTime(window.furtiveBench.apis[name][api], 200, true, 300);
      });
      await fn(page);
      if (page.furtiveErrors.length > 0) throw new Error(`the Chromium page failed:\n${page.furtiveErrors.join("\n")}`);
      return version;
    });
  } finally {
    await server.close();
  }
}
/** `applyTime` in the Chromium page, for build `name`'s `api` ("foundryWasm" or "npmWasm"). */
const chromiumTime = (page, name, api, size, clear) =>
  page.evaluate(({ name, api, size, clear }) => window.furtiveBench.applyTime(window.furtiveBench.apis[name][api], size, clear), { name, api, size, clear });

const rows = [];
const row = async (target, bound, measure) => {
  const oldValue = await measure(builds.old, "old");
  const newValue = await measure(builds.new, "new");
  rows.push({ target, bound, oldValue, newValue });
  console.error(`${target}: old ${oldValue}, new ${newValue}`);
};
const µs = (x) => `${Math.round(x)} µs`;
const bytes = (x) => `${x.toLocaleString("en")} B`;
// Warm up each runtime once, untimed.
for (const name of ["old", "new"]) for (const api of ["napi", "npmWasm", "foundryWasm"]) applyTime(builds[name][api], 200, true, 300);

await row("Foundry module's wasm, every pair comes into view (200 creatures)", "≤ 300 µs", (b) => µs(applyTime(b.foundryWasm, 200, true)));
await row("Foundry module's wasm, no pair changes (200 creatures)", "≤ 100 µs", (b) => µs(applyTime(b.foundryWasm, 200, false)));
await row("Foundry module's wasm, reading the event alone (refused once read: its hider is unknown)", "reported", (b) => µs(readTime(b.foundryWasm)));
await row("Foundry module's wasm, every pair, 1,000 creatures", "within 1.5× of 200", (b) => µs(applyTime(b.foundryWasm, 1000, true)));
await row("npm wasm (Node), every pair (200 creatures)", "≤ 300 µs", (b) => µs(applyTime(b.npmWasm, 200, true)));
await row("npm wasm (Node), every pair, 1,000 creatures", "within 1.5× of 200", (b) => µs(applyTime(b.npmWasm, 1000, true)));
const chromiumVersion = await inChromium(async (page) => {
  await row("Foundry wasm in Chromium (at the table), every pair comes into view (200 creatures)", "≤ 300 µs", async (_, name) => µs(await chromiumTime(page, name, "foundryWasm", 200, true)));
  await row("Foundry wasm in Chromium (at the table), no pair changes (200 creatures)", "≤ 100 µs", async (_, name) => µs(await chromiumTime(page, name, "foundryWasm", 200, false)));
  await row("npm wasm in Chromium, every pair comes into view (200 creatures)", "≤ 300 µs", async (_, name) => µs(await chromiumTime(page, name, "npmWasm", 200, true)));
  await row("npm wasm in Chromium, no pair changes (200 creatures)", "≤ 100 µs", async (_, name) => µs(await chromiumTime(page, name, "npmWasm", 200, false)));
});
await row("napi, every pair (200 creatures)", "≤ 200 µs", (b) => µs(applyTime(b.napi, 200, true)));
await row("napi, every pair, 1,000 creatures", "within 1.5× of 200", (b) => µs(applyTime(b.napi, 1000, true)));
const ms = (x) => `${x} ms`;
await row("One Foundry action at 200 tokens, module CPU: a GM moves an observer (200 tokens, 50 hiding)", "≤ 16 ms", (b) => ms(b.action["move: module ms (CPU, self: scripts + engine, median)"]));
await row("One Foundry action, module CPU: a GM opens a door before 3 hiders (123 tokens)", "≤ 16 ms", (b) => ms(b.action["door: module ms (CPU, self: scripts + engine, median)"]));
await row("Foundry module's wasm size, gzip -9", "≤ 250 KB", (b) => bytes(b.foundrySize));
await row("npm wasm size, gzip -9", "reported", (b) => bytes(b.npmSize));

const oldCommit = execFileSync("git", ["-C", repo, "rev-parse", "--short", process.env.FURTIVE_BENCH_OLD ?? "HEAD"]).toString().trim();
const newCommit = execFileSync("git", ["-C", repo, "rev-parse", "--short", "HEAD"]).toString().trim();
const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
const section = `## Engine

Written by \`bash bench/engine.sh\` (\`bench/engine.mjs\`), ${new Date().toISOString().slice(0, 10)}, Node ${process.version},
old: ${process.env.FURTIVE_BENCH_OLD ? `\`${oldCommit}\`` : "the old checkout"}, new: \`${newCommit}\` (load average ${load} on 2 shared
cores when it ended). \`Session.apply\` of a \`viewChanged\` naming 150 observers,
a quarter of the creatures hiding, the effects' log read: the median of single
timed calls. ${
  chromiumVersion
    ? `The rows "in Chromium" ran in headless Chromium ${chromiumVersion}, on a cross-origin isolated page
(\`performance.now()\` precise to 5 µs); the others in Node.`
    : `All rows ran in Node; the rows "in Chromium" are missing: ${chromiumSkipped}.`
}

| target | bound | old | new |
|---|---|---:|---:|
${rows.map((r) => `| ${r.target} | ${r.bound} | ${r.oldValue} | ${r.newValue} |`).join("\n")}
`;

const file = path.join(repo, "docs/performance.md");
const doc = readFileSync(file, "utf8");
const start = doc.indexOf("\n## Engine\n");
const next = start < 0 ? -1 : doc.indexOf("\n## ", start + 1);
const updated =
  start < 0 ? `${doc.trimEnd()}\n\n${section}` : `${doc.slice(0, start + 1)}${section}${next < 0 ? "" : doc.slice(next)}`;
writeFileSync(file, updated.trimEnd() + "\n");
console.log(section);
