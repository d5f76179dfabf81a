// furtive, WebAssembly backend: browsers, and Node.js from bytes or a file URL.
//
//   import { init, createState, apply } from "furtive/browser";
//   await init();                    // fetches ./wasm/furtive_wasm_bg.wasm next to this file
//   const state = createState({ ruleset: "percentile", creatures: [...] });
//
// Every function but `init` is synchronous and throws an `Error` with a
// `code` (see index.d.ts). Before `init` has resolved they throw
// `engine_not_ready`. A panic inside the engine aborts its WebAssembly
// instance: the call throws `engine_panicked` and the instance is replaced
// by a fresh one, so later calls work; if that fails, every later call
// throws `engine_poisoned` until `init()` succeeds again.

import initWasm, * as wasm from "./wasm/furtive_wasm.js";
import { SIGNATURES as SIGNATURES_OF, encodeArguments } from "./arguments.js";
import { BINDING_ERROR_CODES, furtiveError } from "./errors.js";

/** Which engine this entry point runs. */
export const backend = "wasm";

let ready = false;
let loading = null;
let poisoned = null;

function defaultSource() {
  return new URL("./wasm/furtive_wasm_bg.wasm", import.meta.url);
}

async function load(input) {
  let source = input ?? defaultSource();
  // Node.js cannot fetch file: URLs; read the file instead.
  const fileUrl =
    (source instanceof URL && source.protocol === "file:") ||
    (typeof source === "string" && source.startsWith("file:"));
  if (fileUrl) {
    const { readFile } = await import("node:fs/promises");
    source = await readFile(source instanceof URL ? source : new URL(source));
  }
  try {
    await initWasm({ module_or_path: source });
  } catch (error) {
    const what = source instanceof URL || typeof source === "string" ? ` from ${source}` : "";
    throw furtiveError(
      "engine_load_failed",
      `init: could not load the furtive wasm engine${what}: ${error?.message ?? error}`,
      error,
    );
  }
}

/**
 * Loads the engine. `input`: a URL or string (fetched; a file: URL is read
 * from disk in Node.js), a `Response` or a promise of one, the `.wasm`
 * bytes, or a compiled `WebAssembly.Module`. Default: the `.wasm` file next
 * to this module. Resolves once the engine is ready; calling it again
 * returns the same promise. Rejects with `engine_load_failed`.
 */
export function init(input) {
  if (ready) return Promise.resolve();
  if (loading === null) {
    loading = load(input).then(
      () => {
        if (poisoned !== null) {
          // The module is loaded already; start a fresh instance of it.
          try {
            wasm.__wbg_reset_state();
          } catch (error) {
            loading = null;
            throw furtiveError("engine_load_failed", `init: could not start a fresh wasm instance: ${error?.message ?? error}`, error);
          }
        }
        ready = true;
        poisoned = null;
      },
      (error) => {
        loading = null;
        throw error;
      },
    );
  }
  return loading;
}

/** Turns a code-less exception out of the engine (a panic or a trap) into `engine_panicked`. */
function panicked(error) {
  const detail =
    error instanceof Error
      ? error.message.startsWith("engine: the engine panicked")
        ? error.message
        : `engine: the engine stopped (${error.name}: ${error.message})`
      : `engine: the engine stopped (${String(error)})`;
  try {
    wasm.__wbg_reset_state();
    return furtiveError(
      "engine_panicked",
      `${detail}; this is a bug in furtive, please report it with the input. The wasm instance was reset: later calls run on a fresh one.`,
      error,
    );
  } catch (resetError) {
    ready = false;
    loading = null;
    poisoned = `${detail}; resetting the wasm instance failed too (${resetError?.message ?? resetError})`;
    return furtiveError("engine_panicked", `${poisoned}. Call init() again before any other call.`, error);
  }
}

function guard(name) {
  const call = wasm[name];
  const encode = name in SIGNATURES_OF ? (args) => encodeArguments(name, args) : () => [];
  return function (...args) {
    if (!ready) {
      if (poisoned !== null) {
        throw furtiveError("engine_poisoned", `${name}: the engine cannot be used: ${poisoned}. Call init() again.`);
      }
      throw furtiveError("engine_not_ready", `${name}: the wasm engine is not loaded yet; await init() first`);
    }
    const texts = encode(args);
    try {
      return call(...texts);
    } catch (error) {
      if (error instanceof Error && typeof error.code === "string") throw error;
      throw panicked(error);
    }
  };
}

export const createState = guard("createState");
export const apply = guard("apply");
export const perceives = guard("perceives");
export const canLocate = guard("canLocate");
export const canDefend = guard("canDefend");
export const knockout = guard("knockout");
export const canPickpocket = guard("canPickpocket");
export const attackHidden = guard("attackHidden");
export const hiddenFrom = guard("hiddenFrom");
export const rollRequests = guard("rollRequests");
export const settle = guard("settle");
export const parseScene = guard("parseScene");
export const clearView = guard("clearView");
export const clearViewMatrix = guard("clearViewMatrix");
/** The nine P2 situation modifiers and their values: `[{ id, value }]`. */
export const situationModifiers = guard("situationModifiers");
const engineErrorCodes = guard("errorCodes");

/** Every error code a furtive call can throw: the engine's, then the JavaScript layer's. */
export function errorCodes() {
  return [...engineErrorCodes(), ...BINDING_ERROR_CODES];
}

/** Panics inside the engine on purpose. For furtive's own tests only; not public API. */
export const __panicForTests = guard("__panicForTests");
