// furtive, WebAssembly backend: browsers, and Node.js from bytes or a file URL.
//
//   import { init, Session } from "furtive/browser";
//   await init();                    // fetches ./wasm/furtive_wasm_bg.wasm next to this file
//   const session = Session.create({ ruleset: "percentile", creatures: [...] });
//   const effects = session.apply({ type: "enterStealth", hider: "spy", roll: 37 });
//
// Every function but `init` is synchronous and throws an `Error` with a
// `code` (see index.d.ts). Before `init` has resolved they throw
// `engine_not_ready`. A panic inside the engine aborts its WebAssembly
// instance: the call throws `engine_panicked` and the instance is replaced
// by a fresh one, so later calls work; if that fails, every later call
// throws `engine_poisoned` until `init()` succeeds again. Every `Session` of
// the reset instance is gone: its calls throw `session_lost` (reload it with
// `Session.load(lastSnapshot)`). A build without a cargo feature (the
// Foundry module's) lacks its exports: calling one throws `not_in_this_build`.

import initWasm, * as wasm from "./wasm/furtive_wasm.js";
import { SIGNATURES, encodeArguments } from "./arguments.js";
import { BINDING_ERROR_CODES, furtiveError } from "./errors.js";
import { FEATURES } from "./signatures.js";
import { defineClasses } from "./classes.js";
import { explainer } from "./explain.js";

/** Which engine this entry point runs. */
export const backend = "wasm";

let ready = false;
let loading = null;
let poisoned = null;
/** Counts wasm instances: a panic resets the instance, and the objects of an older one are lost. */
let generation = 0;

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
            generation++;
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
  generation++;
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

function ensureReady(name) {
  if (!ready) {
    if (poisoned !== null) {
      throw furtiveError("engine_poisoned", `${name}: the engine cannot be used: ${poisoned}. Call init() again.`);
    }
    throw furtiveError("engine_not_ready", `${name}: the wasm engine is not loaded yet; await init() first`);
  }
}

/**
 * The engine takes each argument as the UTF-8 bytes of its JSON text (a
 * `Uint8Array`; see `text` in crates/furtive-wasm/src/lib.rs). wasm-bindgen
 * would copy a string into the instance one character at a time in
 * JavaScript; `TextEncoder.encodeInto` writes the same bytes natively, and
 * wasm-bindgen copies them into the instance with one `Uint8Array.set`. Arguments of up to `SCRATCH_LIMIT`
 * bytes are written side by side into one reused buffer: each call's views
 * are copied before the call returns, and JavaScript runs one call at a time.
 * Longer ones get a buffer of their own (`TextEncoder.encode`), so the
 * reused one never holds more than `SCRATCH_LIMIT` bytes.
 * https://developer.mozilla.org/docs/Web/API/TextEncoder/encodeInto
 */
const encoder = new TextEncoder();
const SCRATCH_LIMIT = 1 << 20;
let scratch = new Uint8Array(1 << 16);

/**
 * The UTF-8 bytes of each text (well-formed: arguments.js replaces lone
 * surrogates), as views that stay valid until the next call.
 * @param {string[]} texts
 * @returns {Uint8Array[]}
 */
function utf8(texts) {
  let most = 0;
  // encodeInto writes at most three bytes per UTF-16 code unit.
  for (const text of texts) most += text.length * 3;
  if (most > SCRATCH_LIMIT) return texts.map((text) => encoder.encode(text));
  if (most > scratch.length) scratch = new Uint8Array(Math.min(SCRATCH_LIMIT, 2 ** Math.ceil(Math.log2(most))));
  const bytes = new Array(texts.length);
  let offset = 0;
  for (let i = 0; i < texts.length; i++) {
    const written = encoder.encodeInto(texts[i], scratch.subarray(offset)).written;
    bytes[i] = scratch.subarray(offset, offset + written);
    offset += written;
  }
  return bytes;
}

/** Runs one call into the engine: coded errors pass, anything else is a panic or a trap. */
function run(call) {
  try {
    return call();
  } catch (error) {
    if (error instanceof Error && typeof error.code === "string") throw error;
    throw panicked(error);
  }
}

/** `label`: what the message names; `key`: a free function's name, or a member's `Class.name`. */
function notInThisBuild(label, key = label) {
  return furtiveError("not_in_this_build", `${label}: this build of the engine leaves it out (cargo feature \`${FEATURES[key]}\`)`);
}

function guard(name) {
  // Its explanations given as texts (explain.js).
  const finish = explainer(name) ?? ((result) => result);
  return function (...args) {
    ensureReady(name);
    const call = wasm[name];
    if (typeof call !== "function") throw notInThisBuild(name);
    const texts = encodeArguments(name, args);
    return finish(JSON.parse(run(() => call(...utf8(texts)))));
  };
}

const functions = Object.fromEntries(Object.keys(SIGNATURES).map((name) => [name, guard(name)]));
export const {
  createState, apply, perceives, canLocate, canDefend, knockout, canPickpocket, attackHidden, hiddenFrom,
  rollRequests, settle, parseScene, clearView, clearViewMatrix, concealedByDarkness, alliedSides,
} = functions;

/** What the messages call an object of each class, and what to do once it is freed, and once it is lost. */
const KINDS = {
  Session: ["session", "load a snapshot into a new one with Session.load(snapshot)", "reload it from your last snapshot with Session.load(snapshot)"],
  SceneSight: ["SceneSight", "parse the scene again with SceneSight.parse(scene)", "parse the scene again with SceneSight.parse(scene)"],
};

/**
 * The wasm-bindgen object a class instance holds, `{ object, generation }`:
 * `object` is null once freed (wasm-bindgen's `free()` leaves a null
 * pointer, which a later call would hand to the engine), and `generation`
 * is the instance it lives in: once a panic has reset the instance, the
 * objects of the old one are lost.
 */
function live(native, name, className) {
  if (native.object !== null && native.generation === generation) return native.object;
  const [noun, freed, lost] = KINDS[className];
  if (native.object === null) throw furtiveError("session_freed", `${name}: this ${noun} was freed (free() or a using block); ${freed}`);
  throw furtiveError("session_lost", `${name}: this ${noun} was lost when the engine panicked and its wasm instance was reset; ${lost}`);
}

/**
 * `Session` (the engine keeps the state) and `SceneSight` (a Foundry scene
 * read once) over the instance's wasm-bindgen classes: see classes.js and
 * index.d.ts. A build without a cargo feature (the Foundry module's: no
 * `scene`, no `roller`) lacks what needs it: `SceneSight.parse`, `settle`
 * and `rollRequests` then throw `not_in_this_build`.
 */
export const { Session, SceneSight } = defineClasses({
  construct(className, name, texts) {
    const qualified = `${className}.${name}`;
    ensureReady(qualified);
    if (typeof wasm[className]?.[name] !== "function") throw notInThisBuild(qualified);
    return { object: run(() => wasm[className][name](...utf8(texts))), generation };
  },
  call(native, name, texts, className) {
    const object = live(native, name, className);
    if (typeof object[name] !== "function") throw notInThisBuild(name, `${className}.${name}`);
    return run(() => object[name](...utf8(texts)));
  },
  get: (native, name, className) => live(native, name, className)[name],
  free(native) {
    // An object of an instance that was reset has nothing left to free.
    if (native.generation === generation) native.object?.free();
    native.object = null;
  },
  // A panic in wasm aborts the whole instance, whichever call it came from.
  panicForTests: () => run(() => wasm.__panicForTests()),
});

/** The nine P2 situation modifiers and their values: `[{ id, value }]`. */
export const situationModifiers = functions.situationModifiers;
const engineErrorCodes = functions.errorCodes;

/** Every error code a furtive call can throw: the engine's, then the JavaScript layer's. */
export function errorCodes() {
  return [...engineErrorCodes(), ...BINDING_ERROR_CODES];
}

/** Panics inside the engine on purpose. For furtive's own tests only; not public API. */
export function __panicForTests() {
  ensureReady("__panicForTests");
  return run(() => wasm.__panicForTests());
}
