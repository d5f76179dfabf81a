// The package's `Session` class, shared by both backends (node.js: the napi
// addon; browser.js: WebAssembly). It holds the backend's own session object
// (furtive_core::api_session::JsonSession inside), encodes each argument
// like the free functions do (arguments.js), and turns a session that can no
// longer be used into a clear error:
//
// - `session_freed`: `free()` was called (or a `using` block ended);
// - `session_lost`: the engine panicked. In wasm a panic resets the instance
//   and every session of the old instance is gone; in napi only a session
//   whose changing call (apply, applyAll, settle) panicked is dropped (it
//   may hold a half-applied event).
//
// Recovery is the caller's: keep the last `snapshot()` you saved and call
// `Session.load(snapshot)`; nothing is restored behind your back.
//
// Methods, constructors and properties come from signatures.js, generated
// from the Rust export list.

import { SESSION_CONSTRUCTORS, SESSION_GETTERS, SESSION_METHODS } from "./signatures.js";
import { encodeWith } from "./arguments.js";
import { furtiveError } from "./errors.js";

/** `Symbol.dispose` where the platform has it (Node.js 20+, recent browsers). */
const DISPOSE = typeof Symbol.dispose === "symbol" ? Symbol.dispose : Symbol.for("Symbol.dispose");

/**
 * The `Session` class over one backend.
 *
 * `backend`:
 * - `construct(name, texts)`: calls the native static constructor `name`,
 *   returns the native session (throws coded errors);
 * - `invoke(native, name, texts)`: calls a native method, returns its JSON
 *   text result (throws coded errors);
 * - `get(native, name)`: reads a native property;
 * - `release(native)`: frees the native session;
 * - `has(name)`: whether this build has the method (a lean wasm may not);
 * - `generation()`: the engine instance the session must belong to (wasm
 *   counts resets; napi: always 0);
 * - `feature(name)`: the cargo feature a missing method needs, for the message;
 * - `panicForTests(native)`: makes the engine panic inside this session's
 *   call (furtive's own tests only).
 */
export function defineSession(backend) {
  /** @type {WeakMap<object, { native: any, generation: number, freed: boolean }>} */
  const slots = new WeakMap();
  const token = Symbol("Session");

  function live(session, name) {
    const slot = slots.get(session);
    if (slot === undefined) throw furtiveError("invalid_input", `${name}: called on something that is not a Session`);
    if (slot.freed) {
      throw furtiveError("session_freed", `${name}: this session was freed (free() or a using block); load a snapshot into a new one with Session.load(snapshot)`);
    }
    if (slot.generation !== backend.generation()) {
      throw furtiveError(
        "session_lost",
        `${name}: this session was lost when the engine panicked and its wasm instance was reset; reload it from your last snapshot with Session.load(snapshot)`,
      );
    }
    return slot;
  }

  function missing(name) {
    return furtiveError("not_in_this_build", `${name}: this build of the engine leaves it out (cargo feature \`${backend.feature(name)}\`)`);
  }

  class Session {
    /** Use `Session.create(config)` or `Session.load(snapshot)`. */
    constructor(key, native, generation) {
      if (key !== token) throw furtiveError("invalid_input", "Session: use Session.create(config) or Session.load(snapshot)");
      slots.set(this, { native, generation, freed: false });
    }

    /**
     * The patch to a `hiddenFrom()` lookup built before these effects:
     * `effects.hiddenFrom`, `[{ observer, hider, hidden }]` by observer
     * then hider. `hidden: true` adds `hider` to `lookup[observer]`,
     * `false` removes it (drop the observer when its list is empty).
     */
    static hiddenFromChanges(effects) {
      const changes = effects?.hiddenFrom;
      if (!Array.isArray(changes)) {
        throw furtiveError("invalid_input", "effects.hiddenFrom: missing; pass what apply, applyAll or settle returned");
      }
      return changes;
    }

    /** Frees the engine's copy of the state now. Later calls throw `session_freed`. Calling it twice is harmless. */
    free() {
      const slot = slots.get(this);
      if (slot === undefined || slot.freed) return;
      slot.freed = true;
      // A session of an instance that was reset has nothing left to free.
      if (slot.generation === backend.generation()) backend.release(slot.native);
      slot.native = null;
    }

    /** `using session = Session.create(config)` frees it at the end of the block. */
    [DISPOSE]() {
      this.free();
    }
  }

  for (const [name, specs] of Object.entries(SESSION_CONSTRUCTORS)) {
    Object.defineProperty(Session, name, {
      value: {
        [name](...args) {
          const texts = encodeWith(specs, args);
          const generation = backend.generation();
          return new Session(token, backend.construct(name, texts), generation);
        },
      }[name],
      writable: true,
      configurable: true,
    });
  }
  for (const [name, specs] of Object.entries(SESSION_METHODS)) {
    Object.defineProperty(Session.prototype, name, {
      value: {
        [name](...args) {
          const slot = live(this, name);
          if (!backend.has(name)) throw missing(name);
          return JSON.parse(backend.invoke(slot.native, name, encodeWith(specs, args)));
        },
      }[name],
      writable: true,
      configurable: true,
    });
  }
  for (const name of SESSION_GETTERS) {
    Object.defineProperty(Session.prototype, name, {
      get() {
        return backend.get(live(this, name).native, name);
      },
      configurable: true,
    });
  }
  /** Panics inside the engine during a call of this session. For furtive's own tests only; not public API. */
  Object.defineProperty(Session.prototype, "__panicForTests", {
    value() {
      return backend.panicForTests(live(this, "__panicForTests").native);
    },
    configurable: true,
  });
  return Session;
}
