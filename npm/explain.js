// The explanations (B3) in English and French. The engine sends each
// explanation as a message, `[key number, argument...]`
// (furtive_core::message); this
// module writes its `en` and `fr` texts from the catalog's templates
// (explanations.js, generated from the same catalog), so the engine's wasm
// carries no text. The Rust renderer (`Message::render`) writes the same
// characters: the shared vectors compare both with the same goldens.
//
// A template is text with `{name}` placeholders. An argument renders as: a
// string as it is; a number in decimal; a message as its own template in
// the same language; a list as its items joined by ", ". An unknown key
// renders as the message's JSON, a missing argument as its placeholder.
//
// A result's `message` (a query's answer) becomes `en` and `fr` at once.
// The `log` of an `apply`'s effects is rendered when it is first read, so
// a caller that does not read the explanations does not pay for them.

import { CATALOG, KEYS } from "./explanations.js";

/** The results whose explanations are rendered, by method or function name. */
const LOG_RESULTS = new Set(["apply", "applyAll", "settle"]);
const MESSAGE_RESULTS = new Set(["perceives", "canLocate", "canDefend", "knockout", "canPickpocket", "attackHidden"]);
/** The results that are lists of answers, each with its own `message`. */
const LIST_RESULTS = new Set(["pairs"]);

/**
 * Each key's templates, by key number, split into parts: literal text at
 * even places, at odd places the argument's place in the message (1 for
 * the first argument), or its name in braces when the key has no such
 * argument. Filled on first use.
 * @type {Array<[Array<string | number>, Array<string | number>] | undefined>}
 */
const compiled = [];

/**
 * @param {string} template
 * @param {readonly string[]} args
 * @returns {Array<string | number>}
 */
function split(template, args) {
  const parts = [];
  let rest = template;
  for (;;) {
    const open = rest.indexOf("{");
    const close = open < 0 ? -1 : rest.indexOf("}", open + 1);
    if (close < 0) {
      parts.push(rest);
      return parts;
    }
    const name = rest.slice(open + 1, close);
    const place = args.indexOf(name);
    parts.push(rest.slice(0, open), place < 0 ? `{${name}}` : place + 1);
    rest = rest.slice(close + 1);
  }
}

/**
 * @param {number} number a key's number
 */
function partsOf(number) {
  let parts = compiled[number];
  if (parts === undefined) {
    const key = KEYS[number];
    if (key === undefined) return undefined;
    const { args, en, fr } = CATALOG[key];
    parts = [split(en, args), split(fr, args)];
    compiled[number] = parts;
  }
  return parts;
}

/**
 * The text of a message or an argument, as the engine writes them
 * (furtive_core::message): a message is `[key number, argument...]`, its
 * arguments in the catalog's order; a list is `[-1, item...]`; a text a
 * string; an integer a number; a missing argument `null` (its placeholder
 * stays as it is).
 * @param {unknown} value
 * @param {0 | 1} language 0 for English, 1 for French
 * @returns {string}
 */
function text(value, language) {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (!Array.isArray(value)) return String(value);
  if (value[0] === -1) {
    let joined = "";
    for (let i = 1; i < value.length; i++) joined += (i > 1 ? ", " : "") + text(value[i], language);
    return joined;
  }
  const parts = partsOf(value[0]);
  if (parts === undefined) return JSON.stringify(value);
  const template = parts[language];
  let out = /** @type {string} */ (template[0]);
  for (let i = 1; i < template.length; i += 2) {
    const place = template[i];
    if (typeof place !== "number") out += place;
    else if (value[place] === null || value[place] === undefined) out += `{${CATALOG[KEYS[value[0]]].args[place - 1]}}`;
    else out += text(value[place], language);
    out += template[i + 1];
  }
  return out;
}

/**
 * `object` with its `message` replaced by `en` and `fr`, in its place: the
 * engine writes `message` last in every result that has one.
 * @param {any} object
 */
function rendered(object) {
  if (object === null || typeof object !== "object" || !Object.hasOwn(object, "message")) return object;
  const { message, ...out } = object;
  out.en = text(message, 0);
  out.fr = text(message, 1);
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
 * gets `en` and `fr` in place of its `message` (each answer of a list
 * too: `pairs`); an `apply`'s effects or
 * outcome gets a `log` whose entries do, rendered when first read.
 * @param {string} name
 * @returns {((result: any) => any) | null} null when `name` returns no explanation
 */
export function explainer(name) {
  if (LOG_RESULTS.has(name)) return logged;
  if (MESSAGE_RESULTS.has(name)) return rendered;
  if (LIST_RESULTS.has(name)) return (/** @type {any[]} */ list) => list.map(rendered);
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
