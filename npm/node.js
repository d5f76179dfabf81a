// furtive, Node.js backend: the native napi addon.
//
//   import { init, Session } from "furtive";
//   await init();                    // resolves at once here; needed by the wasm backend
//   const session = Session.create({ ruleset: "percentile", creatures: [...] });
//   const effects = session.apply({ type: "enterStealth", hider: "spy", roll: 37 });
//
// The free functions (`createState`, `apply(state, event)`...) stay: each
// loads the state into a session in the engine for one call.
//
// Same API and same results as the wasm backend (browser.js). Every function
// but `init` is synchronous and throws an `Error` with a `code`. A panic in
// the engine is caught in Rust and thrown as `engine_panicked`; the process
// and the addon keep working.
//
// The addon is this platform's prebuilt package (native.js); when none is
// installed, this module falls back to the wasm backend (read from disk by
// `init()`); `backend` tells which runs.

import { SIGNATURES, encodeArguments } from "./arguments.js";
import { BINDING_ERROR_CODES } from "./errors.js";
import { defineClasses } from "./classes.js";
import { explainer } from "./explain.js";
import { loadAddon } from "./native.js";

const addon = loadAddon();
const engine = addon ?? (await import("./browser.js"));

/** Which engine this entry point runs: `"napi"`, or `"wasm"` when no addon matches the platform. */
export const backend = addon ? "napi" : "wasm";

/** Resolves at once with the napi addon; loads the wasm engine in the fallback. */
export async function init(input) {
  if (!addon) await engine.init(input);
}

/**
 * An addon function with its arguments serialized (see arguments.js) and its
 * JSON text result parsed, its explanations given as texts (explain.js);
 * the wasm fallback does it itself.
 */
function bind(/** @type {keyof typeof SIGNATURES} */ name) {
  if (!addon) return engine[name];
  const finish = explainer(name);
  return finish === null
    ? (/** @type {unknown[]} */ ...args) => JSON.parse(addon[name](...encodeArguments(name, args)))
    : (/** @type {unknown[]} */ ...args) => finish(JSON.parse(addon[name](...encodeArguments(name, args))));
}

const functions = Object.fromEntries(Object.keys(SIGNATURES).map((name) => [name, bind(name)]));
export const {
  createState, apply, perceives, canLocate, canDefend, knockout, canPickpocket, attackHidden, hiddenFrom,
  rollRequests, settle, parseScene, clearView, clearViewMatrix, concealedByDarkness, alliedSides,
} = functions;

/**
 * `Session` (the engine keeps the state) and `SceneSight` (a Foundry scene
 * read once) over the addon's classes, which free and lose their engine
 * object themselves: see classes.js and index.d.ts. The wasm fallback
 * defines its own.
 */
export const { Session, SceneSight } = addon
  ? defineClasses({
      construct: (className, name, texts) => addon[className][name](...texts),
      call: (object, name, texts) => object[name](...texts),
      get: (object, name) => object[name],
      free: (object) => object.free(),
      panicForTests: (object) => object.__panicForTests(),
    })
  : engine;

/** The nine P2 situation modifiers and their values: `[{ id, value }]`. */
export const situationModifiers = functions.situationModifiers;

/** Every error code a furtive call can throw: the engine's, then the JavaScript layer's. */
export function errorCodes() {
  return addon ? [...functions.errorCodes(), ...BINDING_ERROR_CODES] : engine.errorCodes();
}

/** Panics inside the engine on purpose. For furtive's own tests only; not public API. */
export const __panicForTests = engine.__panicForTests;
