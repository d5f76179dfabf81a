// furtive, Node.js backend: the native napi addon.
//
//   import { init, createState, apply } from "furtive";
//   await init();                    // resolves at once here; needed by the wasm backend
//   const state = createState({ ruleset: "percentile", creatures: [...] });
//
// Same API and same results as the wasm backend (browser.js). Every function
// but `init` is synchronous and throws an `Error` with a `code`. A panic in
// the engine is caught in Rust and thrown as `engine_panicked`; the process
// and the addon keep working.
//
// When no prebuilt addon matches this platform, this module falls back to
// the wasm backend (read from disk by `init()`); `backend` tells which runs.

import { createRequire } from "node:module";
import { SIGNATURES, encodeArguments } from "./arguments.js";
import { BINDING_ERROR_CODES } from "./errors.js";

function addonFile() {
  const { platform, arch } = process;
  if (platform === "linux") {
    const glibc = process.report?.getReport?.().header?.glibcVersionRuntime;
    return `./furtive.linux-${arch}-${glibc ? "gnu" : "musl"}.node`;
  }
  return `./furtive.${platform}-${arch}.node`;
}

function loadAddon() {
  try {
    return createRequire(import.meta.url)(addonFile());
  } catch (error) {
    if (error?.code === "MODULE_NOT_FOUND") return null;
    throw error;
  }
}

const addon = loadAddon();
const engine = addon ?? (await import("./browser.js"));

/** Which engine this entry point runs: `"napi"`, or `"wasm"` when no addon matches the platform. */
export const backend = addon ? "napi" : "wasm";

/** Resolves at once with the napi addon; loads the wasm engine in the fallback. */
export async function init(input) {
  if (!addon) await engine.init(input);
}

/** An addon function with its arguments serialized (see arguments.js); the wasm fallback does it itself. */
const bind = (/** @type {keyof typeof SIGNATURES} */ name) =>
  addon ? (/** @type {unknown[]} */ ...args) => addon[name](...encodeArguments(name, args)) : engine[name];

export const createState = bind("createState");
export const apply = bind("apply");
export const perceives = bind("perceives");
export const canLocate = bind("canLocate");
export const canDefend = bind("canDefend");
export const knockout = bind("knockout");
export const canPickpocket = bind("canPickpocket");
export const attackHidden = bind("attackHidden");
export const hiddenFrom = bind("hiddenFrom");
export const rollRequests = bind("rollRequests");
export const settle = bind("settle");
export const parseScene = bind("parseScene");
export const clearView = bind("clearView");
export const clearViewMatrix = bind("clearViewMatrix");

/** The nine P2 situation modifiers and their values: `[{ id, value }]`. */
export const situationModifiers = addon ? () => addon.situationModifiers() : engine.situationModifiers;

/** Every error code a furtive call can throw: the engine's, then the JavaScript layer's. */
export function errorCodes() {
  return addon ? [...addon.errorCodes(), ...BINDING_ERROR_CODES] : engine.errorCodes();
}

/** Panics inside the engine on purpose. For furtive's own tests only; not public API. */
export const __panicForTests = engine.__panicForTests;
