// The package's handle classes, `Session` and `SceneSight`, shared by both
// backends (node.js: the napi addon; browser.js: WebAssembly). A handle
// holds the backend's own object (furtive_core::api_session::JsonSession or
// api_scene::JsonSceneSight inside), encodes each argument like the free
// functions do (arguments.js), parses the engine's JSON text results, and
// turns a handle that can no longer be used into a clear error:
//
// - `session_freed`: `free()` was called (or a `using` block ended);
// - `session_lost`: the engine panicked. In wasm a panic resets the
//   instance and every handle of the old instance is gone; in napi the
//   addon drops only the handle whose call panicked and may have left it
//   half changed (a `Session`'s apply, applyAll or settle; any `SceneSight`
//   call, which fills caches), and answers `session_lost` itself.
// - `not_in_this_build`: a method or constructor of a cargo feature this
//   build leaves out (`scene`, `roller`).
//
// Recovery is the caller's: nothing is restored behind your back (a
// `Session`: `Session.load(lastSnapshot)`; a `SceneSight`: parse the scene
// again).
//
// Constructors, methods and properties come from signatures.js, generated
// from the Rust export list.

import { SCENE_CONSTRUCTORS, SCENE_METHODS, SESSION_CONSTRUCTORS, SESSION_GETTERS, SESSION_METHODS } from "./signatures.js";
import { encodeWith } from "./arguments.js";
import { furtiveError } from "./errors.js";
import { explainer } from "./explain.js";

/** `Symbol.dispose` where the platform has it (Node.js 20+, recent browsers). */
const DISPOSE = typeof Symbol.dispose === "symbol" ? Symbol.dispose : Symbol.for("Symbol.dispose");

/**
 * A handle class over one backend.
 *
 * `kind`, what the class is:
 * - `name`: the JavaScript class name (`"Session"`), and `noun`, what its
 *   messages call an instance (`"session"`);
 * - `constructors`, `methods`: `{ name: argument specs }` (signatures.js);
 *   `getters`: property names (default none);
 * - `explained`: its methods' results carry explanations (explain.js);
 * - `usage`: how to make one (the message of `new`);
 * - `freed`, `lost`: what to do after `session_freed`, `session_lost`.
 *
 * `backend`:
 * - `ready(name)`: throws when the engine cannot take calls yet (wasm:
 *   `engine_not_ready`, `engine_poisoned`);
 * - `construct(className, name, texts)`: calls the native static
 *   constructor, returns the native object (throws coded errors);
 * - `invoke(native, name, texts, className)`: calls a native method,
 *   returns its JSON text result (throws coded errors);
 * - `get(native, name, className)`: reads a native property;
 * - `release(native, className)`: frees the native object;
 * - `has(className, name)`: whether this build has the constructor or method;
 * - `feature(key)`: the cargo feature a missing one needs, for the message
 *   (`key`: a free function's name, or a member's `Class.name`);
 * - `generation()`: the engine instance a handle must belong to (wasm
 *   counts resets; napi: always 0);
 * - `panicForTests(native, className)`: makes the engine panic inside this handle's
 *   call (furtive's own tests only).
 */
export function defineHandle(kind, backend) {
  const { name: className, noun } = kind;
  /** @type {WeakMap<object, { native: any, generation: number, freed: boolean }>} */
  const slots = new WeakMap();
  const token = Symbol(className);

  function live(handle, name) {
    const slot = slots.get(handle);
    if (slot === undefined) throw furtiveError("invalid_input", `${name}: called on something that is not a ${className}`);
    if (slot.freed) {
      throw furtiveError("session_freed", `${name}: this ${noun} was freed (free() or a using block); ${kind.freed}`);
    }
    if (slot.generation !== backend.generation()) {
      throw furtiveError("session_lost", `${name}: this ${noun} was lost when the engine panicked and its wasm instance was reset; ${kind.lost}`);
    }
    return slot;
  }

  /**
   * `slot` again after the arguments were encoded: their getters or
   * `toJSON` run the caller's code, which may have freed this handle or
   * made the engine panic (a reset wasm instance), so the native object
   * read before may be gone. Without this check the call went to it
   * anyway: in wasm a freed object is a null pointer and an object of the
   * old instance is stale, both taken for a panic that reset the instance
   * again and lost every session.
   */
  function still(slot, handle, name) {
    return slot.freed || slot.generation !== backend.generation() ? live(handle, name) : slot;
  }

  /** Throws `not_in_this_build` (named `label`) unless this build has `name`; `qualified`: `Session.name`, the key of the feature it needs. */
  function present(label, name, qualified) {
    if (!backend.has(className, name)) {
      throw furtiveError("not_in_this_build", `${label}: this build of the engine leaves it out (cargo feature \`${backend.feature(qualified)}\`)`);
    }
  }

  const Handle = {
    [className]: class {
      constructor(key, native, generation) {
        if (key !== token) throw furtiveError("invalid_input", `${className}: ${kind.usage}`);
        slots.set(this, { native, generation, freed: false });
      }

      /** Frees the engine's copy now. Later calls throw `session_freed`. Calling it twice is harmless. */
      free() {
        const slot = slots.get(this);
        if (slot === undefined || slot.freed) return;
        slot.freed = true;
        // A handle of an instance that was reset has nothing left to free.
        if (slot.generation === backend.generation()) backend.release(slot.native, className);
        slot.native = null;
      }

      /** `using handle = ...` frees it at the end of the block. */
      [DISPOSE]() {
        this.free();
      }
    },
  }[className];

  for (const [name, specs] of Object.entries(kind.constructors)) {
    const qualified = `${className}.${name}`;
    Object.defineProperty(Handle, name, {
      value: {
        [name](...args) {
          backend.ready(qualified);
          present(qualified, name, qualified);
          const texts = encodeWith(specs, args);
          const generation = backend.generation();
          return new Handle(token, backend.construct(className, name, texts), generation);
        },
      }[name],
      writable: true,
      configurable: true,
    });
  }
  for (const [name, specs] of Object.entries(kind.methods)) {
    // Whether this build has the method cannot change once it answered yes
    // (a reset wasm instance is the same module): asked until then.
    let has = false;
    const qualified = `${className}.${name}`;
    const check = () => {
      if (!has) {
        present(name, name, qualified);
        has = true;
      }
    };
    // The result as JavaScript values, its explanations given as `en` and
    // `fr` texts (explain.js): a query's at once, an effects' log when
    // `effects.log` is first read.
    const finish = kind.explained ? explainer(name) : null;
    /** @type {(text: string) => any} */
    const parse = finish === null
        ? (text) => JSON.parse(text)
        : (text) => finish(JSON.parse(text));
    Object.defineProperty(Handle.prototype, name, {
      value: {
        [name](...args) {
          const slot = live(this, name);
          check();
          const texts = encodeWith(specs, args);
          return parse(backend.invoke(still(slot, this, name).native, name, texts, className));
        },
      }[name],
      writable: true,
      configurable: true,
    });
  }
  for (const name of kind.getters ?? []) {
    Object.defineProperty(Handle.prototype, name, {
      get() {
        return backend.get(live(this, name).native, name, className);
      },
      configurable: true,
    });
  }
  /** Panics inside the engine during a call of this handle. For furtive's own tests only; not public API. */
  Object.defineProperty(Handle.prototype, "__panicForTests", {
    value() {
      return backend.panicForTests(live(this, "__panicForTests").native, className);
    },
    configurable: true,
  });
  return Handle;
}

/**
 * The package's two handle classes over one backend (see `defineHandle`
 * for `backend`): `Session`, the engine with its state, and `SceneSight`,
 * a Foundry scene read once.
 */
export function defineHandles(backend) {
  const Session = defineHandle(
    {
      name: "Session",
      noun: "session",
      constructors: SESSION_CONSTRUCTORS,
      methods: SESSION_METHODS,
      getters: SESSION_GETTERS,
      usage: "use Session.create(config) or Session.load(snapshot)",
      explained: true,
      freed: "load a snapshot into a new one with Session.load(snapshot)",
      lost: "reload it from your last snapshot with Session.load(snapshot)",
    },
    backend,
  );
  /**
   * The patch to a `hiddenFrom()` lookup built before these effects:
   * `effects.hiddenFrom`, `[{ observer, hider, hidden }]` by observer
   * then hider. `hidden: true` adds `hider` to `lookup[observer]`,
   * `false` removes it (drop the observer when its list is empty).
   */
  Session.hiddenFromChanges = function hiddenFromChanges(effects) {
    const changes = effects?.hiddenFrom;
    if (!Array.isArray(changes)) {
      throw furtiveError("invalid_input", "effects.hiddenFrom: missing; pass what apply, applyAll or settle returned");
    }
    return changes;
  };
  const SceneSight = defineHandle(
    {
      name: "SceneSight",
      noun: "SceneSight",
      constructors: SCENE_CONSTRUCTORS,
      methods: SCENE_METHODS,
      usage: "use SceneSight.parse(scene)",
      freed: "parse the scene again with SceneSight.parse(scene)",
      lost: "parse the scene again with SceneSight.parse(scene)",
    },
    backend,
  );
  return { Session, SceneSight };
}
