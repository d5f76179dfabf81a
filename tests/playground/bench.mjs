#!/usr/bin/env node
// Benchmark of the playground page (not a test), in headless Chromium:
// - first paint: from the start of navigation to the first frame drawn
//   with the run in it (engine loaded, fixtures fetched, table built);
// - one drag step at 50 tokens on Nort Gate: the scene update, clear view
//   from and to the moved token, `Session.applyAll` of the view changes
//   (with the seeded answers to any Perception check), and the redraw.
// Writes its figures under "## Playground" in docs/performance.md
// (replacing that section only).
//
//   bash scripts/playground.sh --prepare && node tests/playground/bench.mjs [--no-write]

import { readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cpus, loadavg } from "node:os";

import { REPO, launch } from "./browser.mjs";

const HEADING = "## Playground";
const TOKENS = 50;
const HIDERS = 10;
const STEPS = 400;

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main() {
  // Cross-origin isolated: performance.now() precise to 5 µs instead of 100 µs.
  const browser = await launch({ headers: { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" } });
  try {
    const paints = [];
    for (let i = 0; i < 5; i++) {
      const page = await browser.open();
      paints.push(await page.evaluate(() => window.playground.firstPaint));
      await page.close();
    }
    paints.sort((a, b) => a - b);

    const page = await browser.open();
    const result = await page.evaluate(async ({ TOKENS, HIDERS, STEPS }) => {
      const { moveStep } = await import("./table.js");
      const pg = window.playground;
      // 50 tokens on the ground floor of Nort Gate, on a grid of open ground
      // and rooms; the first ten hide (typed totals, so no dice change the work).
      pg.perform({ t: "reveal", id: "__none__" }); // a refused action: measures nothing, checks refusals are cheap
      const ids = [];
      for (let i = 0; pg.table.tokens.size < TOKENS; i++) {
        const id = `bench-${i}`;
        const x = 300 + (i % 8) * 200;
        const y = 900 + Math.floor(i / 8) * 250;
        const done = pg.perform({ t: "add", id, actor: i % 3 === 0 ? "srd51:Goblin" : "srd51:Guard", side: i % 2 ? "garrison" : "intruders", x, y });
        if (done) ids.push(id);
      }
      for (const id of ids.slice(0, HIDERS)) pg.perform({ t: "hide", id, roll: 14 });
      const table = pg.table;
      // A change of light: the lantern lit (clear view of every pair asked
      // again, a viewChanged per hider), then the lit squares and the redraw.
      const lightTimes = [];
      for (let i = 0; i < 7; i++) {
        const start = performance.now();
        pg.perform({ t: "light", id: "gate-lantern", on: i % 2 === 0 });
        pg.paint();
        lightTimes.push(performance.now() - start);
      }
      const mover = table.tokens.get(ids[HIDERS]); // an observer, so every hider hears of its view
      const times = [];
      const path = [];
      for (let i = 0; i < STEPS; i++) {
        const x = 500 + (i % 20) * 50;
        const y = 1900 + (Math.floor(i / 20) % 4) * 50;
        const start = performance.now();
        moveStep(table, mover, x, y);
        pg.paint();
        pg.renderPanels(mover.id);
        times.push(performance.now() - start);
        path.push([x, y]);
      }
      const hiderMover = table.tokens.get(ids[0]);
      const hiderTimes = [];
      for (let i = 0; i < STEPS; i++) {
        const x = 500 + (i % 20) * 50;
        const y = 2300 + (Math.floor(i / 20) % 4) * 50;
        const start = performance.now();
        moveStep(table, hiderMover, x, y);
        pg.paint();
        pg.renderPanels(hiderMover.id);
        hiderTimes.push(performance.now() - start);
      }
      return { times, hiderTimes, lightTimes, tokens: table.tokens.size, hiders: table.hiders.size, isolated: crossOriginIsolated };
    }, { TOKENS, HIDERS, STEPS });
    const errors = page.errors;
    await page.close();
    if (errors.length) throw new Error(`the page logged errors: ${errors.join("; ")}`);
    const observer = [...result.times].sort((a, b) => a - b);
    const hider = [...result.hiderTimes].sort((a, b) => a - b);
    const version = browser.context.browser()?.version() ?? "Chromium";
    const light = [...result.lightTimes].sort((a, b) => a - b);
    return { paints, observer, hider, light, tokens: result.tokens, hiders: result.hiders, isolated: result.isolated, version };
  } finally {
    await browser.close();
  }
}

const f = (ms) => `${ms.toFixed(2)} ms`;
const load = loadavg()[0];
const figures = await main();
const date = new Date().toISOString().slice(0, 10);
const section = `${HEADING}

The playground page (\`playground/\`), measured by \`node tests/playground/bench.mjs\`
in headless Chromium ${figures.version} (the wasm engine of the npm package,
${figures.isolated ? "cross-origin isolated: timer precise to 5 µs" : "timer precise to 100 µs"}), ${date},
on ${cpus().length} cores with a load average of ${load.toFixed(1)} when it started (other
work shares the machine: the 95th percentiles carry its pauses; the medians
are the page's cost).

| what | median | 95th percentile | budget |
| --- | --- | --- | --- |
| first paint (navigation start to the first frame of the run, 5 loads) | ${f(quantile(figures.paints, 0.5))} | ${f(figures.paints[figures.paints.length - 1])} (slowest) | 1 s |
| drag step, an observer moves (${figures.tokens} tokens, ${figures.hiders} hiding, Nort Gate at night) | ${f(quantile(figures.observer, 0.5))} | ${f(quantile(figures.observer, 0.95))} | 8 ms |
| drag step, a hider moves (the same table) | ${f(quantile(figures.hider, 0.5))} | ${f(quantile(figures.hider, 0.95))} | 8 ms |
| a change of light (the gate lantern on or off; the same table, 7 times) | ${f(quantile(figures.light, 0.5))} | ${f(figures.light[figures.light.length - 1])} (slowest) | none |

A drag step is what the page does for each half grid square the pointer
crosses: \`SceneSight.update\` (\`tokenMoved\`), clear view between the moved
token and each of the ${figures.tokens - 1} others both ways (\`SceneSight.view\`), one
\`Session.applyAll\` of the \`viewChanged\` events (the moved hider against
every observer, or every hider against the moved observer) with the seeded
answers to the Perception checks it asks, the redraw of the canvas (443
walls, the sight lines of the selected token, the tokens) and of the panels
(who perceives whom: \`Session.pairs\` of the pairs naming the moved token,
the only pairs a step's events touch, cells rewritten when their answer
changed; the explanations). ${STEPS} steps each, the lantern lit.
A change of light asks clear view of every pair again (${figures.tokens} × ${figures.tokens - 1}
\`SceneSight.view\`), tells every hider, and asks \`lightingAt\` at each grid
square's centre for the darkness drawn (798 squares on Nort Gate).
`;

if (!process.argv.includes("--no-write")) {
  const file = join(REPO, "docs", "performance.md");
  let text = existsSync(file) ? await readFile(file, "utf8") : "# Performance\n\nMeasurements of Furtive, each section by the script that writes it.\n";
  const start = text.indexOf(`\n${HEADING}\n`);
  if (start >= 0) {
    const next = text.indexOf("\n## ", start + HEADING.length + 2);
    text = text.slice(0, start + 1) + section + (next >= 0 ? `\n${text.slice(next + 1)}` : "");
  } else {
    text = `${text.trimEnd()}\n\n${section}`;
  }
  await writeFile(file, text);
}
process.stdout.write(section);
