/**
 * `Hooks` (v13/v14 `foundry.helpers.Hooks`, also a global).
 *
 * Documented behavior reproduced here:
 * - `on(hook, fn, {once})` returns a numeric id; `once` is `on` with `{once: true}`.
 * - `off(hook, fnOrId)` unregisters by function or id.
 * - `call(hook, ...args)` calls listeners in registration order and stops at the
 *   first one returning exactly `false`; returns whether every listener ran
 *   without preventing (`false` when one returned false).
 * - `callAll(hook, ...args)` calls every listener; a returned `false` stops nothing.
 * - Hooks are never awaited: an async listener's promise is ignored.
 * - An error thrown by a listener is reported through `Hooks.onError` and does
 *   not stop the other listeners (v12/v13 `Hooks.onError(location, error, {msg, log, notify})`).
 * Each client gets its own Hooks class (one per browser tab in real Foundry).
 */
export function createHooks({ onError } = {}) {
  /** @type {Map<string, {hook: string, id: number, fn: Function, once: boolean}[]>} */
  const events = new Map();
  const byId = new Map();
  let nextId = 1;
  /** Every hook call on this client, in order: `{hook, args, method}` (for tests). */
  const history = [];

  function run(hook, args, stopOnFalse) {
    const listeners = [...(events.get(hook) ?? [])];
    for (const entry of listeners) {
      if (entry.once) Hooks.off(hook, entry.id);
      let result;
      try {
        result = entry.fn(...args);
      } catch (error) {
        Hooks.onError(`Hooks.${stopOnFalse ? "call" : "callAll"}`, error, { msg: `Error thrown in hooked function '${entry.fn?.name ?? "anonymous"}' for hook '${hook}'`, log: "error" });
        continue;
      }
      if (result && typeof result.then === "function") {
        result.then(undefined, (error) => Hooks.onError(`Hooks.${stopOnFalse ? "call" : "callAll"}`, error, { msg: `Error in async hooked function for hook '${hook}'`, log: "error" }));
      }
      if (stopOnFalse && result === false) return false;
    }
    return true;
  }

  class Hooks {
    static get events() {
      return Object.fromEntries([...events.entries()].map(([k, v]) => [k, [...v]]));
    }
    static on(hook, fn, { once = false } = {}) {
      if (typeof fn !== "function") throw new Error(`Hooks.on: the callback for hook "${hook}" is not a function`);
      const id = nextId++;
      const entry = { hook, id, fn, once };
      if (!events.has(hook)) events.set(hook, []);
      events.get(hook).push(entry);
      byId.set(id, entry);
      return id;
    }
    static once(hook, fn) {
      return Hooks.on(hook, fn, { once: true });
    }
    static off(hook, fn) {
      let entry;
      if (typeof fn === "number") entry = byId.get(fn);
      else entry = (events.get(hook) ?? []).find((e) => e.fn === fn);
      if (!entry || entry.hook !== hook) return;
      byId.delete(entry.id);
      events.set(
        hook,
        (events.get(hook) ?? []).filter((e) => e !== entry),
      );
    }
    static call(hook, ...args) {
      history.push({ hook, args, method: "call" });
      return run(hook, args, true);
    }
    static callAll(hook, ...args) {
      history.push({ hook, args, method: "callAll" });
      run(hook, args, false);
      return true;
    }
    static onError(location, error, { msg = "", log = null, notify = null } = {}) {
      if (onError) onError(location, error, { msg, log, notify });
    }
    /** Fake only: every call made on this client, for assertions. */
    static get _history() {
      return history;
    }
  }
  return Hooks;
}
