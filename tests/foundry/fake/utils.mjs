/**
 * `foundry.utils` subset and the `Collection` class, written from the public
 * API docs (foundryvtt.com/api v12/v13, `foundry.utils` namespace and
 * `foundry.utils.Collection`). Plain ESM, no Node-only imports: it runs in
 * Node and in the browser.
 */

/** `getProperty(object, key)`: a dotted path, `undefined` when absent. */
export function getProperty(object, key) {
  if (object === undefined || object === null || !key) return undefined;
  if (key in Object(object)) return object[key];
  let target = object;
  for (const part of String(key).split(".")) {
    if (target === undefined || target === null) return undefined;
    if (typeof target !== "object" && typeof target !== "function") return undefined;
    target = target[part];
  }
  return target;
}

/** `setProperty(object, key, value)`: returns whether the value changed. */
export function setProperty(object, key, value) {
  const parts = String(key).split(".");
  const last = parts.pop();
  let target = object;
  for (const part of parts) {
    if (target[part] === undefined || target[part] === null || typeof target[part] !== "object") target[part] = {};
    target = target[part];
  }
  const changed = target[last] !== value;
  target[last] = value;
  return changed;
}

/** `hasProperty(object, key)`. */
export function hasProperty(object, key) {
  if (!key) return false;
  const parts = String(key).split(".");
  let target = object;
  for (const part of parts) {
    if (target === undefined || target === null || typeof target !== "object" || !(part in target)) return false;
    target = target[part];
  }
  return true;
}

/** Is this a plain object (not an array, not a class instance)? */
export function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || proto?.constructor?.name === "Object";
}

/** `deepClone(original)`: plain objects and arrays are copied, other values kept. */
export function deepClone(original) {
  if (Array.isArray(original)) return original.map(deepClone);
  if (original instanceof Date) return new Date(original);
  if (isPlainObject(original)) {
    const copy = {};
    for (const [key, value] of Object.entries(original)) copy[key] = deepClone(value);
    return copy;
  }
  return original;
}

/** `duplicate(original)`: a JSON round trip (deprecated in v12 but present). */
export function duplicate(original) {
  return JSON.parse(JSON.stringify(original));
}

/** `expandObject(obj)`: `{"a.b": 1}` -> `{a: {b: 1}}`. */
export function expandObject(obj, depth = 0) {
  if (depth > 32) throw new Error("Maximum object expansion depth exceeded");
  const expanded = {};
  for (const [key, value] of Object.entries(obj)) {
    const v = isPlainObject(value) ? expandObject(value, depth + 1) : value;
    if (key.includes(".")) {
      const parts = key.split(".");
      const last = parts.pop();
      let target = expanded;
      for (const part of parts) {
        if (!isPlainObject(target[part])) target[part] = {};
        target = target[part];
      }
      target[last] = isPlainObject(target[last]) && isPlainObject(v) ? mergeObject(target[last], v, { inplace: false }) : v;
    } else {
      expanded[key] = isPlainObject(expanded[key]) && isPlainObject(v) ? mergeObject(expanded[key], v, { inplace: false }) : v;
    }
  }
  return expanded;
}

/** `flattenObject(obj)`: `{a: {b: 1}}` -> `{"a.b": 1}`. Empty objects stay as values. */
export function flattenObject(obj, prefix = "") {
  const flat = {};
  for (const [key, value] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length) Object.assign(flat, flattenObject(value, path));
    else flat[path] = value;
  }
  return flat;
}

/**
 * v14 data field operators (`foundry.data.operators`,
 * https://foundryvtt.com/api/modules/foundry.data.operators.html):
 * `{key: new ForcedDeletion()}` (or the global `_del`) deletes `key` in an
 * update, where v13 wrote `{"-=key": null}`; the `-=` form still works in v14
 * with a compatibility warning ("Deprecated since Version 14, backwards-compatible
 * support will be removed in Version 16", quoted in sun-dragon-cult/fvtt-system-rqg#890).
 * An operator travels serialized and is rebuilt on arrival
 * (`reconstructOperator(obj)`, https://foundryvtt.com/api/functions/foundry.data.operators.reconstructOperator.html),
 * so the `changed` data of an update hook holds a `ForcedDeletion` instance.
 * The docs name the serialized form's key (`OPERATOR_IDENTIFIER`) but not its
 * value: {@link OPERATOR_KEY} is this fake's own.
 */
export const OPERATOR_KEY = "__fakeOperator";
export class DataFieldOperator {
  toJSON() {
    return { [OPERATOR_KEY]: this.constructor.operatorName };
  }
}
export class ForcedDeletion extends DataFieldOperator {
  static operatorName = "ForcedDeletion";
  /** The factory the docs pair with the class (one shared instance, like the global `_del`). */
  static create() {
    return FORCED_DELETION;
  }
}
const FORCED_DELETION = new ForcedDeletion();

/** Whether a value is a ForcedDeletion, as an instance or serialized. */
export function isForcedDeletion(value) {
  return value instanceof ForcedDeletion || (isPlainObject(value) && value[OPERATOR_KEY] === ForcedDeletion.operatorName);
}

/** `reconstructOperator` over a whole update: serialized operators become instances again. */
export function reconstructOperators(value) {
  if (isForcedDeletion(value)) return FORCED_DELETION;
  if (Array.isArray(value)) return value;
  if (!isPlainObject(value)) return value;
  for (const [key, inner] of Object.entries(value)) value[key] = reconstructOperators(inner);
  return value;
}

/**
 * v14 clients turn legacy `-=key` deletions into ForcedDeletion operators and
 * log the compatibility warning once per call (`warn`).
 * @param {object} changes expanded update data (changed in place)
 * @param {(message: string) => void} warn
 */
export function legacyDeletionsToOperators(changes, warn) {
  if (!isPlainObject(changes)) return changes;
  for (const key of Object.keys(changes)) {
    const value = changes[key];
    if (key.startsWith("-=")) {
      delete changes[key];
      changes[key.slice(2)] = FORCED_DELETION;
      warn(`The {-=${key.slice(2)}: null} syntax for forced deletion of a data field value is no longer supported in favor of {${key.slice(2)}: new foundry.data.operators.ForcedDeletion()}`);
    } else legacyDeletionsToOperators(value, warn);
  }
  return changes;
}

/**
 * `mergeObject(original, other, options)`, with the documented options
 * `insertKeys`, `insertValues`, `overwrite`, `recursive`, `inplace`,
 * `performDeletions` (keys `-=key` delete `key`). Dotted keys in `other` are
 * expanded first. Arrays are replaced, never merged (documented behavior).
 * `forcedReplacement` (v13, keys `==key` replace `key` wholesale) is an option
 * of this fake so the server can enable it per Foundry version;
 * `applyOperators` (v14: a ForcedDeletion value deletes its key; dnd5e
 * release-5.3.3 module/migration.mjs L70 passes `applyOperators` on 14 where 13
 * took `performDeletions`) likewise.
 */
export function mergeObject(original, other = {}, options = {}) {
  const {
    insertKeys = true,
    insertValues = true,
    overwrite = true,
    recursive = true,
    inplace = true,
    performDeletions = false,
    forcedReplacement = false,
    applyOperators = false,
  } = options;
  if (Object.keys(other).some((k) => k.includes("."))) other = expandObject(other);
  const target = inplace ? original : deepClone(original);
  for (const [rawKey, value] of Object.entries(other)) {
    if (applyOperators && isForcedDeletion(value)) {
      delete target[rawKey];
      continue;
    }
    if (performDeletions && rawKey.startsWith("-=")) {
      delete target[rawKey.slice(2)];
      continue;
    }
    if (forcedReplacement && rawKey.startsWith("==")) {
      target[rawKey.slice(2)] = deepClone(value);
      continue;
    }
    const key = rawKey;
    const exists = Object.prototype.hasOwnProperty.call(target, key);
    if (!exists) {
      if (isPlainObject(value) ? insertKeys : insertKeys || insertValues) {
        target[key] = isPlainObject(value) ? mergeObject({}, value, { ...options, inplace: true }) : deepClone(value);
      }
      continue;
    }
    if (recursive && isPlainObject(value) && isPlainObject(target[key])) {
      target[key] = mergeObject(target[key], value, { ...options, inplace: true });
    } else if (overwrite) {
      target[key] = isPlainObject(value) ? mergeObject({}, value, { ...options, inplace: true }) : deepClone(value);
    }
  }
  return target;
}

function jsonEqual(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `diffObject(original, other, {deletionKeys})`: the keys of `other` whose
 * values differ from `original`, recursing into inner objects. `-=key`
 * deletions are kept when the key exists; `==key` replacements when they differ.
 */
export function diffObject(original, other, { deletionKeys = true } = {}) {
  const diff = {};
  for (const [key, value] of Object.entries(other)) {
    if (deletionKeys && key.startsWith("-=")) {
      if (Object.prototype.hasOwnProperty.call(original ?? {}, key.slice(2))) diff[key] = value;
      continue;
    }
    if (key.startsWith("==")) {
      if (!jsonEqual(original?.[key.slice(2)], value)) diff[key] = value;
      continue;
    }
    if (isForcedDeletion(value)) {
      if (Object.prototype.hasOwnProperty.call(original ?? {}, key)) diff[key] = value;
      continue;
    }
    const before = original?.[key];
    if (isPlainObject(value) && isPlainObject(before)) {
      const inner = diffObject(before, value, { deletionKeys });
      if (Object.keys(inner).length) diff[key] = inner;
    } else if (!jsonEqual(before, value)) {
      diff[key] = value;
    }
  }
  return diff;
}

/** `isEmpty(value)`. */
export function isEmpty(value) {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (value instanceof Map || value instanceof Set) return value.size === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

/**
 * `randomID(length = 16)`: "a random alphanumeric string ID of a given
 * requested length using crypto.getRandomValues()", letters A-Z, a-z and
 * digits (https://foundryvtt.com/api/v14/functions/foundry.utils.randomID.html).
 * Random on every client, as in Foundry: two clients never share a sequence
 * (a deterministic counter gave two GMs the same ids).
 */
export function randomID(length = 16) {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const values = globalThis.crypto.getRandomValues(new Uint32Array(length));
  let id = "";
  for (const value of values) id += chars[value % chars.length];
  return id;
}

/** `debounce(callback, delay)`. */
export function debounce(callback, delay) {
  let timeout = null;
  return function debounced(...args) {
    if (timeout) clearTimeout(timeout);
    timeout = setTimeout(() => {
      timeout = null;
      callback.apply(this, args);
    }, delay);
  };
}

/** `escapeHTML(value)`. */
export function escapeHTML(value) {
  return String(value)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#x27;");
}

/**
 * `foundry.utils.Collection`: a Map with array-like helpers
 * (`contents`, `find`, `filter`, `map`, `some`, `reduce`, `getName`).
 * Iterating a Collection yields its values (documented).
 */
export class Collection extends Map {
  get contents() {
    return Array.from(super.values());
  }
  *[Symbol.iterator]() {
    yield* super.values();
  }
  find(predicate) {
    for (const [key, value] of this.entries()) if (predicate(value, key, this)) return value;
    return undefined;
  }
  filter(predicate) {
    return this.contents.filter(predicate);
  }
  map(transformer) {
    return this.contents.map(transformer);
  }
  some(predicate) {
    return this.contents.some(predicate);
  }
  every(predicate) {
    return this.contents.every(predicate);
  }
  forEach(fn) {
    for (const value of this.contents) fn(value);
  }
  reduce(reducer, initial) {
    return this.contents.reduce(reducer, initial);
  }
  get(key, { strict = false } = {}) {
    const value = super.get(key);
    if (strict && value === undefined) throw new Error(`The key ${key} does not exist in the ${this.constructor.name} Collection`);
    return value;
  }
  getName(name, { strict = false } = {}) {
    const value = this.find((v) => v.name === name);
    if (strict && value === undefined) throw new Error(`An entry with name ${name} does not exist in the collection`);
    return value;
  }
  toJSON() {
    return this.map((v) => (typeof v.toJSON === "function" ? v.toJSON() : v));
  }
}

/** The `foundry.utils` namespace object installed on each client. */
export const utils = {
  getProperty,
  isNewerVersion,
  setProperty,
  hasProperty,
  deepClone,
  duplicate,
  expandObject,
  flattenObject,
  mergeObject: (original, other, options = {}) => mergeObject(original, other, { ...options, forcedReplacement: false }),
  diffObject,
  isEmpty,
  randomID,
  debounce,
  escapeHTML,
  Collection,
};

/**
 * `isNewerVersion(v1, v0)`: whether version `v1` is newer than `v0`, comparing
 * dot-separated parts numerically (https://foundryvtt.com/api/functions/foundry.utils.isNewerVersion.html).
 */
export function isNewerVersion(v1, v0) {
  const a = String(v1).split(".");
  const b = String(v0).split(".");
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const x = Number(a[i] ?? 0);
    const y = Number(b[i] ?? 0);
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if ((a[i] ?? "") !== (b[i] ?? "")) return (a[i] ?? "") > (b[i] ?? "");
      continue;
    }
    if (x !== y) return x > y;
  }
  return false;
}
