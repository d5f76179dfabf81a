// How both backends hand JavaScript values to the engine: every argument is
// serialized with the platform's own `JSON.stringify`, and the engine reads
// the text back with serde_json, so both backends accept, refuse and word
// everything identically. A `JSON.stringify` replacer refuses what JSON
// would silently turn into something else, naming the path of the value:
// NaN and Infinity (JSON would write null), functions, symbols and BigInts,
// `undefined` array elements and holes, nesting deeper than 64 levels, and
// strings or keys over 1 MiB. An `undefined` object property is absent, as
// in JSON; lone UTF-16 surrogates (in strings, keys and boxed strings alike)
// become U+FFFD.

import { furtiveError } from "./errors.js";
import { SIGNATURES } from "./signatures.js";

/** The arguments of each engine function, in order; `?` marks an optional one (generated from the Rust export list). */
export { SIGNATURES };

/** Deepest nesting accepted (the engine's shapes nest a few levels). */
export const MAX_DEPTH = 64;
/** Longest string or key accepted, in UTF-16 code units. */
export const MAX_STRING = 1024 * 1024;

/** A refusal raised inside the replacer, with the path of the bad value. */
class Refusal extends Error {}

/**
 * `JSON.stringify(value)` that refuses non-JSON data, naming its path
 * (`event.view[0].distance`).
 * @param {string} argument the argument's name, the root of every path
 * @param {unknown} value
 * @returns {string | undefined}
 */
function stringify(argument, value) {
  /** @type {WeakMap<object, {path: string, depth: number}>} */
  const places = new WeakMap();
  return JSON.stringify(value, function (key, item) {
    const holder = places.get(this);
    const path = holder === undefined ? argument : Array.isArray(this) ? `${holder.path}[${key}]` : `${holder.path}.${key}`;
    const depth = holder === undefined ? 0 : holder.depth + 1;
    if (key.length > MAX_STRING) throw new Refusal(`${holder?.path ?? argument}: a key of ${key.length} characters is too long (at most ${MAX_STRING})`);
    // A boxed number, string or BigInt is unboxed by JSON.stringify after
    // the replacer (a boxed NaN written as null): read here as the value it
    // writes. https://tc39.es/ecma262/#sec-serializejsonproperty
    if (item instanceof Number) item = Number(item);
    else if (item instanceof String) item = String(item);
    else if (item instanceof BigInt) item = item.valueOf();
    switch (typeof item) {
      case "number":
        if (!Number.isFinite(item)) throw new Refusal(`${path}: ${item} is not a JSON number`);
        return item;
      case "string":
        if (item.length > MAX_STRING) throw new Refusal(`${path}: a string of ${item.length} characters is too long (at most ${MAX_STRING})`);
        return item.toWellFormed();
      case "bigint":
        throw new Refusal(`${path}: a BigInt is not JSON data; use a number`);
      case "function":
      case "symbol":
        throw new Refusal(`${path}: a ${typeof item} is not JSON data`);
      case "undefined":
        if (Array.isArray(this)) throw new Refusal(`${path}: undefined is not JSON data`);
        return item;
      case "object":
        if (item !== null) {
          if (depth >= MAX_DEPTH) throw new Refusal(`${path}: nested deeper than ${MAX_DEPTH} levels`);
          places.set(item, { path, depth });
        }
        return item;
      default:
        return item;
    }
  });
}

/**
 * A lone surrogate's escape in `JSON.stringify`'s text (`\udXXX`, the only
 * `\ud` escapes it writes: a pair is written as the character), after an
 * even number of backslashes (`$1`): `\\ud800` is a backslash and the text
 * "ud800", not an escape.
 */
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Whether `value` is plain JSON data that `JSON.stringify` writes exactly as
 * `stringify` would, so the replacer (a function call and a path string per
 * value) can be skipped: finite numbers, strings and keys within
 * `MAX_STRING` (whether they are well-formed is checked on the text, see
 * `encodeOne`), booleans, null, arrays without holes or `undefined`,
 * and objects whose prototype is `Object.prototype` or null, both
 * without a `toJSON`, nested at most `MAX_DEPTH` levels. Anything else (a boxed
 * primitive, a `Date`, a class instance, a refused value) answers false and
 * goes through `stringify`, which writes it or words the refusal. Cycles
 * stop at the depth limit. (A hole reads as `undefined`, as it does for
 * `JSON.stringify`; `for...in` with `hasOwn` visits the own enumerable keys
 * `JSON.stringify` writes, without the array `Object.keys` builds.)
 * @param {unknown} value
 * @param {number} depth
 * @returns {boolean}
 */
function plain(value, depth) {
  const type = typeof value;
  if (type === "string") return value.length <= MAX_STRING;
  // False for NaN and the infinities.
  if (type === "number") return value - value === 0;
  if (type === "boolean") return true;
  if (type !== "object") return false;
  if (value === null) return true;
  if (depth >= MAX_DEPTH) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Array.prototype) {
    // JSON.stringify writes what an array's toJSON returns, unchecked.
    if (!Array.isArray(value) || typeof value.toJSON === "function") return false;
    const length = value.length;
    for (let i = 0; i < length; i++) {
      const item = value[i];
      if (item === undefined || !plain(item, depth + 1)) return false;
    }
    return true;
  }
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (typeof value.toJSON === "function") return false;
  for (const key in value) {
    if (!hasOwn.call(value, key)) continue;
    if (key.length > MAX_STRING) return false;
    const item = value[key];
    if (item !== undefined && !plain(item, depth + 1)) return false;
  }
  return true;
}

/**
 * The JSON text of each argument of the free function `name`, as the engine
 * takes them. Throws `invalid_input` naming the argument when a value is
 * missing or is not JSON data.
 * @param {keyof typeof SIGNATURES} name
 * @param {unknown[]} args
 * @returns {string[]}
 */
export function encodeArguments(name, args) {
  return encodeWith(SIGNATURES[name], args);
}

/**
 * The JSON text of each argument, by a list of argument names (`"tokens?"`
 * is optional: `undefined` is sent as `null`).
 * @param {readonly string[]} specs
 * @param {unknown[]} args
 * @returns {string[]}
 */
export function encodeWith(specs, args) {
  const texts = new Array(specs.length);
  for (let i = 0; i < specs.length; i++) texts[i] = encodeOne(specs[i], args[i]);
  return texts;
}

/**
 * The JSON text of one argument by its spec (`"query"`, or `"tokens?"`,
 * optional: `undefined` is sent as `null`).
 * @param {string} spec
 * @param {unknown} value
 * @returns {string}
 */
function encodeOne(spec, value) {
  if (value === undefined) {
    if (spec.endsWith("?")) return "null";
    throw furtiveError("invalid_input", `${spec}: missing (undefined)`);
  }
  let text;
  try {
    // Plain data (what callers pass) is written by JSON.stringify alone,
    // about three times faster than with the replacer; the text is the same.
    // JSON.stringify writes a lone surrogate as an escape (`\ud800`,
    // lowercase: ECMA-262 QuoteJSONString), wherever it is: a string, a
    // key, a boxed string (none of which the replacer can reach); text
    // with `\ud` in it has each such escape replaced by U+FFFD
    // (`LONE_SURROGATE`). One native scan of the text instead of
    // isWellFormed on every string and key.
    // https://tc39.es/ecma262/#sec-quotejsonstring
    text = plain(value, 0) ? JSON.stringify(value) : stringify(spec.endsWith("?") ? spec.slice(0, -1) : spec, value);
    if (text?.includes("\\ud")) text = text.replace(LONE_SURROGATE, "$1\ufffd");
  } catch (error) {
    if (error instanceof Refusal) throw furtiveError("invalid_input", error.message);
    // A cycle, or a getter or proxy trap that threw.
    const argument = spec.endsWith("?") ? spec.slice(0, -1) : spec;
    throw furtiveError("invalid_input", `${argument}: not JSON data (${error?.message ?? error})`, error);
  }
  if (text === undefined) {
    const argument = spec.endsWith("?") ? spec.slice(0, -1) : spec;
    throw furtiveError("invalid_input", `${argument}: a ${typeof value} is not JSON data`);
  }
  return text;
}
