/**
 * Node side of the fake: each client is a jsdom window (its own realm, its own
 * DOM, its own globals) in which the fake client and the REAL module files are
 * loaded as ES modules through `vm.SourceTextModule` (run node with
 * `--experimental-vm-modules`). The server lives in the main realm and talks to
 * the clients in JSON strings only.
 *
 * The platform pieces jsdom lacks are provided per window: `fetch` for file:
 * URLs (the module's wasm and lang files) and `Response`. jQuery 3 is loaded
 * into every client (a global of earlier Foundry generations; the module does
 * not use it).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import vm from "node:vm";

import { JSDOM } from "jsdom";

import { FakeServer } from "../fake/server.mjs";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, "../../..");
/** The module under test; FURTIVE_MODULE_DIR overrides it (e.g. another worktree). */
export const moduleDir = process.env.FURTIVE_MODULE_DIR ?? path.join(repoRoot, "foundry-module");
export const fakeDir = path.resolve(here, "../fake");

const CONTENT_TYPES = { ".wasm": "application/wasm", ".json": "application/json", ".js": "text/javascript", ".mjs": "text/javascript" };

/**
 * FURTIVE_TEST_READ_DELAY_MS: every `fetch` answers that much later (a cold
 * disk, a slow machine). A test that passes only when files read fast waits
 * on time, not on the world: run the suite with it set (e.g. 250) to find one.
 */
const READ_DELAY_MS = Number(process.env.FURTIVE_TEST_READ_DELAY_MS ?? 0) || 0;

/** Reads of `fileFetch` not answered yet, over every client. */
let reading = 0;

/**
 * How many `fetch` reads (a template, a lang file, the wasm) no client has
 * received yet. The server does not see them, so a test that lets the world
 * settle waits for this to be 0 as well: a read's time depends on the disk,
 * not on turns of the event loop.
 */
export function readsInFlight() {
  return reading;
}

/** `fetch` for file: URLs, answering like a static server. */
async function fileFetch(input) {
  const url = new URL(typeof input === "string" ? input : input.url ?? String(input));
  if (url.protocol !== "file:") throw new TypeError(`fetch failed: only file: URLs in this harness (${url.href})`);
  reading += 1;
  try {
    const bytes = await readFile(fileURLToPath(url));
    if (READ_DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, READ_DELAY_MS));
    return new Response(bytes, { status: 200, headers: { "Content-Type": CONTENT_TYPES[path.extname(url.pathname)] ?? "application/octet-stream" } });
  } catch {
    return new Response("not found", { status: 404, statusText: "Not Found" });
  } finally {
    reading -= 1;
  }
}

/** An ES module loader for one vm context. */
function createLoader(context) {
  const cache = new Map();
  async function load(url) {
    if (cache.has(url)) return cache.get(url);
    const promise = (async () => {
      const source = await readFile(fileURLToPath(url), "utf8");
      const module = new vm.SourceTextModule(source, {
        context,
        identifier: url,
        initializeImportMeta(meta) {
          meta.url = url;
        },
        importModuleDynamically: async (specifier, referrer) => {
          const target = await load(new URL(specifier, referrer.identifier).href);
          await link(target);
          await target.evaluate();
          return target;
        },
      });
      return module;
    })();
    cache.set(url, promise);
    return promise;
  }
  async function link(module) {
    if (module.status === "unlinked") {
      await module.link(async (specifier, referencing) => {
        if (!specifier.startsWith(".") && !specifier.startsWith("/") && !specifier.startsWith("file:")) {
          throw new Error(`bare import "${specifier}" in ${referencing.identifier}: Foundry modules cannot import packages`);
        }
        return load(new URL(specifier, referencing.identifier).href);
      });
    }
  }
  return {
    async import(url) {
      const module = await load(url);
      await link(module);
      await module.evaluate();
      return module.namespace;
    },
  };
}

/** Reads module.json of the real module. */
export async function readManifest() {
  return JSON.parse(await readFile(path.join(moduleDir, "module.json"), "utf8"));
}

/**
 * Starts a world and its clients.
 * @param {object} options
 * @param {object} options.world   world source (see fixtures.mjs)
 * @param {number} [options.version]  the Foundry generation: 13 or 14 (above 14 to test the module's refusal)
 * @param {{userId: string, lang?: string}[]} options.clients  started in order
 * @param {boolean} [options.libWrapper]
 * @param {boolean} [options.loadModule]  load the real module (default true)
 * @param {(ctx: object) => void} [options.system]  the game system's script (see fake/client.mjs)
 * @param {string[]} [options.socketsClosed]  packages enabled since the world was launched (no socket relay)
 */
export async function startWorld({ world, version = 13, clients, libWrapper = false, loadModule = true, system, socketsClosed = [] }) {
  const manifest = await readManifest();
  const server = new FakeServer(world, { version, modules: [manifest], socketsClosed });
  const started = {};
  for (const spec of clients) started[spec.userId] = await startClient({ server, version, libWrapper, loadModule, manifest, system, ...spec });
  await server.idle();
  return { server, clients: started };
}

export async function startClient({ server, userId, version = 13, lang = "en", libWrapper = false, loadModule = true, manifest, beforeCanvas, system }) {
  manifest ??= await readManifest();
  const dom = new JSDOM("<!doctype html><html><head></head><body></body></html>", { runScripts: "outside-only", url: "https://foundry.test/game" });
  const window = dom.window;
  const context = dom.getInternalVMContext();
  window.fetch = fileFetch;
  window.Response = Response;
  window.Request = Request;
  window.Headers = Headers;
  window.TextEncoder = TextEncoder;
  window.TextDecoder = TextDecoder;
  window.console = console;
  // jQuery as a global (see the file's header).
  const jquery = await readFile(require.resolve("jquery/dist/jquery.js"), "utf8");
  vm.runInContext(jquery, context, { filename: "jquery.js" });
  // Foundry renders its templates with Handlebars (a global).
  const handlebars = await readFile(require.resolve("handlebars/dist/handlebars.js"), "utf8");
  vm.runInContext(handlebars, context, { filename: "handlebars.js" });
  const loader = createLoader(context);
  const fake = await loader.import(pathToFileURL(path.join(fakeDir, "client.mjs")).href);
  const moduleBase = pathToFileURL(moduleDir).href + "/";
  const ctx = fake.createClient({
    global: window,
    server,
    userId,
    version,
    lang,
    libWrapper,
    system,
    packageBase: (id) => (id === "furtive" ? moduleBase : `https://foundry.test/modules/${id}/`),
    fetchJson: async (url) => JSON.parse(await readFile(fileURLToPath(url), "utf8")),
  });
  // The module's `ready` handler is async and Foundry does not wait for it
  // ("Hooks are never awaited": https://foundryvtt.com/api/modules/hookEvents.html):
  // `furtive.ready` says it is done (the API, the languages, the moved
  // states). A test waits for it before acting, as a module author would.
  /** @type {Promise<void> | null} */
  let furtiveReady = null;
  await ctx.boot(async () => {
    if (!loadModule) return;
    for (const script of manifest.esmodules ?? []) await loader.import(new URL(script, moduleBase).href);
    furtiveReady = new Promise((resolve) => ctx.Hooks.once("furtive.ready", () => resolve()));
  }, { beforeCanvas });
  return { ctx, window, dom, loader, userId, furtiveReady };
}
