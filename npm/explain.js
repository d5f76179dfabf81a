// The explanations (B3) in English and French. The engine sends each
// explanation as a message, `{ key, args }` (furtive_core::message); this
// module writes its `en` and `fr` texts from the catalog's templates
// (explanations.js, generated from the same catalog), so the engine's wasm
// carries no text. The Rust renderer (`Message::render`) writes the same
// characters: the shared vectors compare both with the same goldens.
//
// A template is text with `{name}` placeholders. An argument renders as: a
// string as it is; a number in decimal; a message as its own template in
// the same language; a list as its items joined by ", ". An unknown key
// renders as the key itself, an unknown placeholder as it is.
//
// A result's `message` (a query's answer) becomes `en` and `fr` at once.
// The `log` of an `apply`'s effects is rendered when it is first read, so
// a caller that does not read the explanations does not pay for them (a
// `Session`'s effects come packed, their log read then too: packed.js).

import { CATALOG } from "./explanations.js";

/** The results whose explanations are rendered, by method or function name. */
const LOG_RESULTS = new Set(["apply", "applyAll", "settle"]);
const MESSAGE_RESULTS = new Set(["perceives", "canLocate", "canDefend", "knockout", "canPickpocket", "attackHidden"]);

/**
 * Each key's templates split into parts: literal text at even places,
 * placeholder names at odd places. Filled on first use.
 * @type {Map<string, [string[], string[]]>}
 */
const compiled = new Map();

/**
 * @param {string} template
 * @returns {string[]}
 */
function split(template) {
  const parts = [];
  let rest = template;
  for (;;) {
    const open = rest.indexOf("{");
    const close = open < 0 ? -1 : rest.indexOf("}", open + 1);
    if (close < 0) {
      parts.push(rest);
      return parts;
    }
    parts.push(rest.slice(0, open), rest.slice(open + 1, close));
    rest = rest.slice(close + 1);
  }
}

/**
 * @param {string} key
 * @returns {[string[], string[]] | undefined}
 */
function partsOf(key) {
  let parts = compiled.get(key);
  if (parts === undefined) {
    const entry = Object.hasOwn(CATALOG, key) ? CATALOG[key] : undefined;
    if (entry === undefined) return undefined;
    parts = [split(entry.en), split(entry.fr)];
    compiled.set(key, parts);
  }
  return parts;
}

/**
 * The text of a message or an argument.
 * @param {unknown} value `{ key, args }`, a string, a number or a list
 * @param {0 | 1} language 0 for English, 1 for French
 * @returns {string}
 */
function text(value, language) {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) {
    let joined = "";
    for (let i = 0; i < value.length; i++) joined += (i > 0 ? ", " : "") + text(value[i], language);
    return joined;
  }
  if (value === null || typeof value !== "object") return String(value);
  const { key, args } = /** @type {{ key: string, args?: Record<string, unknown> }} */ (value);
  const parts = partsOf(key);
  if (parts === undefined) return String(key);
  const template = parts[language];
  let out = template[0];
  for (let i = 1; i < template.length; i += 2) {
    const name = template[i];
    out += (args !== undefined && Object.hasOwn(args, name) ? text(args[name], language) : `{${name}}`) + template[i + 1];
  }
  return out;
}

/**
 * A message's English text.
 * @param {{ key: string, args?: object }} message
 * @returns {string}
 */
export function english(message) {
  return text(message, 0);
}

/**
 * A message's French text.
 * @param {{ key: string, args?: object }} message
 * @returns {string}
 */
export function french(message) {
  return text(message, 1);
}

/**
 * `object` with its `message` replaced by `en` and `fr`, in its place.
 * @param {any} object
 */
function rendered(object) {
  if (object === null || typeof object !== "object" || !Object.hasOwn(object, "message")) return object;
  const out = {};
  for (const key of Object.keys(object)) {
    if (key === "message") {
      out.en = text(object.message, 0);
      out.fr = text(object.message, 1);
    } else out[key] = object[key];
  }
  return out;
}

/**
 * Makes `result.log` its entries, rendered, when it is first read; then
 * it is a plain array, writable like any property. `entries()` gives them
 * with their messages.
 * @param {any} result
 * @param {() => any[]} entries
 */
export function lazyLog(result, entries) {
  const settle = (/** @type {any} */ holder, /** @type {unknown} */ value) => {
    Object.defineProperty(holder, "log", { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(result, "log", {
    get() {
      return settle(this, entries().map(rendered));
    },
    set(value) {
      settle(this, value);
    },
    enumerable: true,
    configurable: true,
  });
  return result;
}

/**
 * The result of `name` (a `Session` method or a free function, parsed from
 * the engine's JSON text) with its explanations as texts: a query's answer
 * gets `en` and `fr` in place of its `message`; an `apply`'s effects or
 * outcome gets a `log` whose entries do, rendered when first read.
 * @param {string} name
 * @returns {((result: any) => any) | null} null when `name` returns no explanation
 */
export function explainer(name) {
  if (LOG_RESULTS.has(name)) return logged;
  if (MESSAGE_RESULTS.has(name)) return rendered;
  return null;
}

/**
 * `result` with its `log` of entries rendered when first read (the free
 * `apply` and `settle`, whose outcome carries the entries).
 * @param {any} result
 */
function logged(result) {
  const raw = result.log;
  if (!Array.isArray(raw) || raw.length === 0) return result;
  return lazyLog(result, () => raw);
}
