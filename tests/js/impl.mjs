// Picks the furtive implementation under test from FURTIVE_IMPL:
// `napi` (npm/node.js), `wasm-node` (npm/browser.js, wasm read from disk),
// `wasm-browser` (npm/browser.js in headless Chromium; see chromium.mjs) or
// `foundry-wasm` (the Foundry module's copy, foundry-module/engine/, in
// Node; scripts/build-foundry.sh makes it).

export const REPO = new URL("../../", import.meta.url);
export const IMPLS = ["napi", "wasm-node", "wasm-browser", "foundry-wasm"];

export function selectedImpl() {
  const impl = process.env.FURTIVE_IMPL ?? "napi";
  if (!IMPLS.includes(impl)) {
    throw new Error(`FURTIVE_IMPL must be one of ${IMPLS.join(", ")}; got ${impl}`);
  }
  return impl;
}

/** The furtive module for a Node-side implementation, initialised. */
export async function loadNodeImpl(impl) {
  if (impl === "napi") {
    const api = await import(new URL("npm/node.js", REPO));
    if (api.backend !== "napi") throw new Error(`npm/node.js runs ${api.backend}, not the napi addon: build it with scripts/build-node.sh`);
    await api.init();
    return api;
  }
  if (impl === "wasm-node") {
    const api = await import(new URL("npm/browser.js", REPO));
    const { readFile } = await import("node:fs/promises");
    await api.init(await readFile(new URL("npm/wasm/furtive_wasm_bg.wasm", REPO)));
    return api;
  }
  if (impl === "foundry-wasm") {
    const api = await import(new URL("foundry-module/engine/browser.js", REPO));
    const { readFile } = await import("node:fs/promises");
    await api.init(await readFile(new URL("foundry-module/engine/wasm/furtive_wasm_bg.wasm", REPO)));
    return api;
  }
  throw new Error(`${impl} does not run in Node`);
}
