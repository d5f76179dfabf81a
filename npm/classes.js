// The package's classes, `Session` and `SceneSight`, over either backend's
// generated classes: the napi addon's `#[napi]` classes (node.js) or the
// wasm instance's `#[wasm_bindgen]` classes (browser.js), whose
// constructors and methods take and return JSON text. An instance holds
// one object of the generated class; it encodes the arguments
// (arguments.js), parses the results and adds their explanations
// (explain.js). The object's lifecycle is the backend's: `free()` frees
// it, and a call after that throws `session_freed`; a call on an object
// lost to an engine panic throws `session_lost`.
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
 * One class over a backend's generated class `className`. `backend`:
 * - `construct(className, name, texts)`: the object a static constructor makes;
 * - `call(object, name, texts, className)`: a method's JSON text result;
 * - `get(object, name, className)`: a property;
 * - `free(object)`, and `panicForTests(object)` (furtive's own tests only).
 */
function define(className, usage, { constructors, methods, getters = [] }, backend) {
  const made = Symbol(className);
  return {
    [className]: class {
      #object;

      constructor(key, object) {
        if (key !== made) throw furtiveError("invalid_input", `${className}: ${usage}`);
        this.#object = object;
      }

      /** Frees the engine's copy now. Later calls throw `session_freed`. Calling it twice is harmless. */
      free() {
        backend.free(this.#object);
      }

      /** `using handle = ...` frees it at the end of the block. */
      [DISPOSE]() {
        this.free();
      }

      /** Panics inside the engine during a call of this object. For furtive's own tests only; not public API. */
      __panicForTests() {
        return backend.panicForTests(this.#object);
      }

      static {
        const object = (self, name) => {
          if (!(#object in self)) throw furtiveError("invalid_input", `${name}: called on something that is not a ${className}`);
          return self.#object;
        };
        // Named, writable, configurable and not enumerable, as a class's own methods are.
        const method = (target, name, value) => Object.defineProperty(target, name, { value, writable: true, configurable: true });
        for (const [name, specs] of Object.entries(constructors)) {
          method(this, name, { [name]: (...args) => new this(made, backend.construct(className, name, encodeWith(specs, args))) }[name]);
        }
        for (const [name, specs] of Object.entries(methods)) {
          // A query's explanations at once, an effects' log when `effects.log` is first read.
          const finish = explainer(name) ?? ((result) => result);
          method(this.prototype, name, {
            [name](...args) {
              const texts = encodeWith(specs, args);
              return finish(JSON.parse(backend.call(object(this, name), name, texts, className)));
            },
          }[name]);
        }
        for (const name of getters) {
          Object.defineProperty(this.prototype, name, {
            get() {
              return backend.get(object(this, name), name, className);
            },
          });
        }
      }
    },
  }[className];
}

/**
 * The package's two classes over one backend (see `define`): `Session`,
 * the engine with its state, and `SceneSight`, a Foundry scene read once.
 */
export function defineClasses(backend) {
  const Session = define(
    "Session",
    "use Session.create(config) or Session.load(snapshot)",
    { constructors: SESSION_CONSTRUCTORS, methods: SESSION_METHODS, getters: SESSION_GETTERS },
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
  const SceneSight = define("SceneSight", "use SceneSight.parse(scene)", { constructors: SCENE_CONSTRUCTORS, methods: SCENE_METHODS }, backend);
  return { Session, SceneSight };
}
