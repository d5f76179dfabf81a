/**
 * A small libWrapper (the "lib-wrapper" module's public API, from its README):
 * - `libWrapper.register(package_id, target, fn, type = "MIXED", {chain, perf_mode, bind})`
 *   `target` is a dotted path from the global scope (e.g.
 *   `"CONFIG.Canvas.detectionModes.basicSight._canDetect"`); returns a numeric id.
 * - `WRAPPER` and `MIXED` wrappers are called as `fn.call(this, wrapped, ...args)`;
 *   `OVERRIDE` is called as `fn.call(this, ...args)` and replaces the original.
 * - A `WRAPPER` that does not call `wrapped`: "the library will auto-detect if you use this type
 *   but do not call the original function, and automatically unregister your wrapper" (README
 *   "Summary", https://github.com/ruipin/fvtt-lib-wrapper#summary). The call itself does not
 *   throw; what that one call returns is not documented (here: the wrapper's own result), and the
 *   fake records the event in `libWrapper._errors`.
 * - Several packages may wrap the same target. Order by type (README "Summary",
 *   https://github.com/ruipin/fvtt-lib-wrapper#summary): every `WRAPPER` runs before every
 *   `MIXED` ("These will always come after 'WRAPPER'-type wrappers"), and `OVERRIDE` is
 *   always called last. Within one type the order is not guaranteed; here the later
 *   registration runs first.
 * - A target may be a getter ("This works for both normal methods, as well as properties
 *   with getters"): the wrapper is called with the getter's `this` and `wrapped()` reads
 *   the original getter. Registering before `init` fails (README `register`).
 * - `libWrapper.unregister(package_id, target, fail = true)`: "If true, this method will throw an
 *   exception if it fails to find the method to unwrap. Default is 'true'." (README
 *   "Unregistering a wrapper"); `libWrapper.unregister_all(package_id)`.
 * - `libWrapper.WRAPPER/MIXED/OVERRIDE` constants; the hook `libWrapper.Ready` fires during `init`.
 */
export function createLibWrapper(global, initialized = () => true) {
  const targets = new Map();
  /** Fake only: wrappers libWrapper unregistered by itself (a WRAPPER that did not call `wrapped`). */
  const errors = [];
  let nextId = 1;

  function resolve(path) {
    const parts = path.split(".");
    const name = parts.pop();
    let owner = global;
    for (const part of parts) {
      owner = owner?.[part];
      if (owner === undefined || owner === null) throw new Error(`libWrapper: cannot resolve target "${path}"`);
    }
    // A getter anywhere on the prototype chain is wrapped where it is defined.
    for (let holder = owner; holder; holder = Object.getPrototypeOf(holder)) {
      const descriptor = Object.getOwnPropertyDescriptor(holder, name);
      if (!descriptor) continue;
      if (descriptor.get) return { owner: holder, name, getter: descriptor.get };
      break;
    }
    if (typeof owner[name] !== "function") throw new Error(`libWrapper: target "${path}" is not a function`);
    return { owner, name };
  }

  function install(record) {
    const { owner, name, original, getter } = record;
    function libWrapperDispatch(...args) {
      const chain = record.wrappers;
      const call = (index, thisArg, callArgs) => {
        if (index >= chain.length) return original.apply(thisArg, callArgs);
        const wrapper = chain[index];
        if (wrapper.type === "OVERRIDE") return wrapper.fn.apply(thisArg, callArgs);
        let called = false;
        const wrapped = (...nextArgs) => {
          called = true;
          return call(index + 1, thisArg, nextArgs);
        };
        const result = wrapper.fn.call(thisArg, wrapped, ...callArgs);
        if (wrapper.type === "WRAPPER" && !called) {
          errors.push({ packageId: wrapper.packageId, target: record.path, message: `package "${wrapper.packageId}" did not call the wrapped function of "${record.path}" (WRAPPER): unregistered` });
          libWrapper.unregister(wrapper.packageId, record.path, false);
        }
        return result;
      };
      return call(0, this, args);
    }
    if (getter) Object.defineProperty(owner, name, { configurable: true, enumerable: false, get: libWrapperDispatch });
    else owner[name] = libWrapperDispatch;
  }

  const libWrapper = {
    WRAPPER: "WRAPPER",
    MIXED: "MIXED",
    OVERRIDE: "OVERRIDE",
    version: "1.12.15",
    is_fallback: false,
    register(packageId, target, fn, type = "MIXED", options = {}) {
      if (!["WRAPPER", "MIXED", "OVERRIDE"].includes(type)) throw new Error(`libWrapper: invalid type "${type}"`);
      if (typeof fn !== "function") throw new Error("libWrapper: fn must be a function");
      if (!initialized()) throw new Error("libWrapper: register was called before the 'init' hook");
      let record = targets.get(target);
      if (!record) {
        const { owner, name, getter } = resolve(target);
        record = { path: target, owner, name, getter, original: getter ?? owner[name], wrappers: [] };
        targets.set(target, record);
        install(record);
      }
      if (record.wrappers.some((w) => w.packageId === packageId)) throw new Error(`libWrapper: package "${packageId}" already wrapped "${target}"`);
      if (type === "OVERRIDE" && record.wrappers.some((w) => w.type === "OVERRIDE")) throw new Error(`libWrapper: "${target}" already has an OVERRIDE`);
      const id = nextId++;
      const entry = { id, packageId, fn, type, options };
      // WRAPPER before MIXED before OVERRIDE; within a type, the later registration first.
      const rank = { WRAPPER: 0, MIXED: 1, OVERRIDE: 2 };
      const at = record.wrappers.findIndex((w) => rank[w.type] >= rank[type]);
      record.wrappers.splice(at < 0 ? record.wrappers.length : at, 0, entry);
      return id;
    },
    unregister(packageId, target, fail = true) {
      const record = typeof target === "number" ? [...targets.values()].find((r) => r.wrappers.some((w) => w.id === target)) : targets.get(target);
      const present = record?.wrappers.some((w) => w.packageId === packageId || w.id === target);
      if (!present) {
        if (fail) throw new Error(`libWrapper: package "${packageId}" has no wrapper on "${target}" to unregister`);
        return;
      }
      record.wrappers = record.wrappers.filter((w) => !(w.packageId === packageId || w.id === target));
      if (!record.wrappers.length) {
        if (record.getter) Object.defineProperty(record.owner, record.name, { configurable: true, enumerable: false, get: record.getter });
        else record.owner[record.name] = record.original;
        targets.delete(record.path);
      }
    },
    unregister_all(packageId) {
      for (const target of [...targets.keys()]) libWrapper.unregister(packageId, target, false);
    },
    /** Fake only: see `errors` above. */
    _errors: errors,
    /** Fake only: the registered wrappers of a target. */
    _wrappersOf(target) {
      return targets.get(target)?.wrappers.map((w) => ({ packageId: w.packageId, type: w.type })) ?? [];
    },
  };
  return libWrapper;
}
