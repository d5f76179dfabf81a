// The package's `SceneSight` class, shared by both backends (node.js: the
// napi addon; browser.js: WebAssembly). It holds the backend's own scene
// object (furtive_core::api_scene::JsonSceneSight inside): a Foundry scene
// read once, with its wall indexes and its tokens' lighting kept between
// calls. Arguments are encoded like the free functions' (arguments.js);
// results are the engine's JSON text, parsed here.
//
// A scene that can no longer be used throws a clear error, with the codes
// `Session` uses:
//
// - `session_freed`: `free()` was called (or a `using` block ended);
// - `session_lost`: the engine panicked during one of its calls (napi), or
//   anywhere (wasm: the instance was reset). Parse the scene again.
//
// A build without the cargo feature `scene` (the Foundry module's lean
// wasm) has no SceneSight: `SceneSight.parse` throws `not_in_this_build`.
//
// Constructors and methods come from signatures.js, generated from the Rust
// export list.

import { SCENE_CONSTRUCTORS, SCENE_METHODS } from "./signatures.js";
import { encodeWith } from "./arguments.js";
import { furtiveError } from "./errors.js";

/** `Symbol.dispose` where the platform has it (Node.js 20+, recent browsers). */
const DISPOSE = typeof Symbol.dispose === "symbol" ? Symbol.dispose : Symbol.for("Symbol.dispose");

/**
 * The `SceneSight` class over one backend.
 *
 * `backend`:
 * - `ready(name)`: throws when the engine cannot take calls yet (wasm:
 *   `engine_not_ready`, `engine_poisoned`);
 * - `construct(name, texts)`: calls the native static constructor `name`,
 *   returns the native scene (throws coded errors);
 * - `invoke(native, name, texts)`: calls a native method, returns its JSON
 *   text result (throws coded errors);
 * - `release(native)`: frees the native scene;
 * - `has()`: whether this build has the class (the lean wasm does not);
 * - `generation()`: the engine instance the scene must belong to (wasm
 *   counts resets; napi: always 0);
 * - `panicForTests(native)`: makes the engine panic inside this scene's
 *   call (furtive's own tests only).
 */
export function defineSceneSight(backend) {
  /** @type {WeakMap<object, { native: any, generation: number, freed: boolean }>} */
  const slots = new WeakMap();
  const token = Symbol("SceneSight");

  function missing(name) {
    return furtiveError("not_in_this_build", `${name}: this build of the engine leaves it out (cargo feature \`scene\`)`);
  }

  function live(sight, name) {
    const slot = slots.get(sight);
    if (slot === undefined) throw furtiveError("invalid_input", `${name}: called on something that is not a SceneSight`);
    if (slot.freed) {
      throw furtiveError("session_freed", `${name}: this SceneSight was freed (free() or a using block); parse the scene again with SceneSight.parse(scene)`);
    }
    if (slot.generation !== backend.generation()) {
      throw furtiveError(
        "session_lost",
        `${name}: this SceneSight was lost when the engine panicked and its wasm instance was reset; parse the scene again with SceneSight.parse(scene)`,
      );
    }
    return slot;
  }

  class SceneSight {
    /** Use `SceneSight.parse(scene)`. */
    constructor(key, native, generation) {
      if (key !== token) throw furtiveError("invalid_input", "SceneSight: use SceneSight.parse(scene)");
      slots.set(this, { native, generation, freed: false });
    }

    /** Frees the engine's copy of the scene now. Later calls throw `session_freed`. Calling it twice is harmless. */
    free() {
      const slot = slots.get(this);
      if (slot === undefined || slot.freed) return;
      slot.freed = true;
      // A scene of an instance that was reset has nothing left to free.
      if (slot.generation === backend.generation()) backend.release(slot.native);
      slot.native = null;
    }

    /** `using sight = SceneSight.parse(scene)` frees it at the end of the block. */
    [DISPOSE]() {
      this.free();
    }
  }

  for (const [name, specs] of Object.entries(SCENE_CONSTRUCTORS)) {
    const qualified = `SceneSight.${name}`;
    Object.defineProperty(SceneSight, name, {
      value: {
        [name](...args) {
          backend.ready(qualified);
          if (!backend.has()) throw missing(qualified);
          const texts = encodeWith(specs, args);
          const generation = backend.generation();
          return new SceneSight(token, backend.construct(name, texts), generation);
        },
      }[name],
      writable: true,
      configurable: true,
    });
  }
  for (const [name, specs] of Object.entries(SCENE_METHODS)) {
    Object.defineProperty(SceneSight.prototype, name, {
      value: {
        [name](...args) {
          const slot = live(this, name);
          return JSON.parse(backend.invoke(slot.native, name, encodeWith(specs, args)));
        },
      }[name],
      writable: true,
      configurable: true,
    });
  }
  /** Panics inside the engine during a call of this scene. For furtive's own tests only; not public API. */
  Object.defineProperty(SceneSight.prototype, "__panicForTests", {
    value() {
      return backend.panicForTests(live(this, "__panicForTests").native);
    },
    configurable: true,
  });
  return SceneSight;
}
