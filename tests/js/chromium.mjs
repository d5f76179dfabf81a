// Node-side helpers for the browser tests: a static file server on
// 127.0.0.1 and headless Debian Chromium driven by playwright-core.

import { createServer } from "node:http";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { extname, join, resolve, sep } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".ts": "text/plain; charset=utf-8",
};

/**
 * Serves the files under `root` on 127.0.0.1 (a free port); `/` is an empty
 * HTML page to load before importing modules. Resolves to `{ origin, close }`.
 * `headers` are added to every response (the benchmarks send COOP/COEP to
 * get a cross-origin isolated page, whose `performance.now()` is precise to
 * 5 µs instead of 100 µs); `mounts` maps a path prefix (`/old/`) to another
 * directory.
 */
export async function serve(root, { headers = {}, mounts = {} } = {}) {
  const server = createServer(async (request, response) => {
    let path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    let base = resolve(root);
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (path.startsWith(prefix)) {
        base = resolve(dir);
        path = `/${path.slice(prefix.length)}`;
        break;
      }
    }
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    if (path === "/") {
      response.writeHead(200, { "content-type": TYPES[".html"] });
      response.end('<!doctype html><meta charset=utf-8><link rel=icon href="data:,"><title>furtive tests</title>');
      return;
    }
    const file = resolve(join(base, path));
    if (!file.startsWith(base + sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Launches headless Chromium with a fresh profile, opens `origin/`, runs
 * `fn(page)` and closes everything. Page errors and console errors are
 * collected in `page.furtiveErrors`.
 */
export async function withPage(origin, fn) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run scripts/test-js.sh (it installs Debian's chromium) or apt-get install chromium`);
  }
  const profile = await mkdtemp(join(tmpdir(), "furtive-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.furtiveErrors = [];
    page.on("pageerror", (error) => page.furtiveErrors.push(`pageerror: ${error.message}`));
    page.on("response", (response) => {
      if (response.status() >= 400) page.furtiveErrors.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    page.on("console", (message) => {
      if (message.type() === "error") page.furtiveErrors.push(`console.error: ${message.text()}`);
    });
    await page.goto(`${origin}/`);
    return await fn(page);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}
