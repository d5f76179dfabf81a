/**
 * The shape of every request a user's client may send the active GM, as
 * data: a small subset of JSON Schema (`type`, `properties`, `required`,
 * `oneOf` of required fields, `enum`, `pattern`, `minLength`/`maxLength`,
 * `minimum`/`maximum`, `items`, `minItems`/`maxItems`; an object takes no
 * field it does not list) and the validator that reads it. `checkRequest`
 * is the GM's door: it runs before anything else on every request that
 * arrives from another client, and refuses with `invalid_input` naming the
 * field's path (`payload.hits`, `payload.targetIds[3]`), quoting no more
 * than 64 characters of what was sent.
 *
 * Exact types, no coercion: `"2"` is not a whole number, `"false"` is not a
 * boolean, a list nested in a list is not an id. Names are looked up as own
 * names only (`Object.hasOwn` on null-prototype tables): `constructor` or
 * `__proto__` is no request kind and no field. Limits follow the engine's
 * own (hits 0 to 100, 1 to 1000 targets, texts of at most 256 characters,
 * at most 32 free modifiers or precautions, raw damage 0 to 100000), so the
 * door refuses early what the engine would refuse later.
 */

import { BadRequest } from "../errors.mjs";
import { shortText } from "./resolve.mjs";

/** Deepest nesting a request may have: the request, its payload, Hide's options, `free`, one modifier. */
export const MAX_DEPTH = 6;
/** Largest request, in characters of its JSON. */
export const MAX_REQUEST_CHARS = 64 * 1024;
/** Longest single text or field name a request may carry. */
const MAX_TEXT_CHARS = 4096;

/** A Foundry document id as the module sends it (`randomID`: letters and digits). */
const id = { type: "string", pattern: "^[A-Za-z0-9]{1,64}$" };
const ids = (/** @type {number} */ max) => ({ type: "array", minItems: 1, maxItems: max, items: id });
const text = { type: "string", maxLength: 256 };
const texts = { type: "array", maxItems: 32, items: text };
const bool = { type: "boolean" };
const hits = { type: "integer", minimum: 0, maximum: 100 };
const free = {
  type: "array",
  maxItems: 32,
  items: { type: "object", properties: { label: text, value: { type: "number" } }, required: ["value"] },
};

/**
 * A payload: its fields (`sceneId` always, required), which are required.
 * @param {Record<string, object>} properties
 * @param {string[]} required
 * @param {object} [more]
 */
const payload = (properties, required, more = {}) => ({ type: "object", properties: { sceneId: id, ...properties }, required: ["sceneId", ...required], ...more });

/**
 * Every request kind: its payload's shape and the field naming the token a
 * player must own to ask it (`acting`); `null` for the GM-only kinds. A
 * null-prototype table: only these names are kinds.
 * @type {Readonly<Record<string, {acting: string | null, payload: object}>>}
 */
export const REQUESTS = Object.freeze(
  Object.assign(Object.create(null), {
    hide: {
      acting: "tokenId",
      payload: payload(
        {
          tokenId: id,
          // A player's options are not used (the GM's dialog decides), but must be the API's.
          options: { type: "object", properties: { dialog: bool, situation: texts, free, moved: bool, sprinting: bool, precautions: texts } },
        },
        ["tokenId"],
      ),
    },
    reveal: { acting: "tokenId", payload: payload({ tokenId: id }, ["tokenId"]) },
    sprint: { acting: "tokenId", payload: payload({ tokenId: id }, ["tokenId"]) },
    pointOut: { acting: "observerId", payload: payload({ observerId: id, hiderId: id, allies: ids(1000) }, ["observerId", "hiderId", "allies"]) },
    attack: {
      acting: "attackerId",
      payload: payload(
        { attackerId: id, targetId: id, targetIds: ids(1000), noisy: bool, hits, area: bool, hitZone: { enum: ["head", "trunk", "arm", "leg", null] }, aimedAtSpace: bool },
        ["attackerId"],
        { oneOf: [{ required: ["targetId"] }, { required: ["targetIds"] }] },
      ),
    },
    damageTaken: { acting: "targetId", payload: payload({ targetId: id, attackerId: id, hits }, ["targetId", "attackerId"]) },
    canKnockout: { acting: "attackerId", payload: payload({ attackerId: id, targetId: id }, ["attackerId", "targetId"]) },
    knockout: { acting: "attackerId", payload: payload({ attackerId: id, targetId: id, rawDamage: { type: "integer", minimum: 0, maximum: 100000 } }, ["attackerId", "targetId"]) },
    canDefend: { acting: "defenderId", payload: payload({ defenderId: id, targetId: id, attackerId: id }, ["defenderId", "targetId", "attackerId"]) },
    override: { acting: null, payload: payload({ hiderId: id, observerId: id, perceived: bool }, ["hiderId", "observerId", "perceived"]) },
    changeModifiers: { acting: null, payload: payload({ hiderId: id, situation: texts, free }, ["hiderId"]) },
    endTurn: { acting: null, payload: payload({ tokenId: id }, ["tokenId"]) },
    reset: { acting: null, payload: payload({}, []) },
    undo: { acting: null, payload: payload({ actionId: id }, ["actionId"]) },
    rollPerception: { acting: null, payload: payload({ hiderId: id, observerId: id }, ["hiderId", "observerId"]) },
    reroll: { acting: null, payload: payload({ hiderId: id }, ["hiderId"]) },
  }),
);

/** The request itself, as the query carries it. `userId` is only a claim, checked afterwards. */
const ENVELOPE = {
  type: "object",
  properties: { kind: { type: "string", maxLength: 32 }, payload: { type: "object" }, requestId: { type: "string", pattern: "^[A-Za-z0-9]{1,32}$" }, userId: id },
  required: ["kind", "payload", "requestId", "userId"],
};

/**
 * What a value is, in words.
 * @param {unknown} value
 */
function sortOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return "a text";
    case "number":
      if (Number.isSafeInteger(value)) return "a whole number";
      return Number.isInteger(value) ? "a number past 2^53" : "a fraction";
    case "boolean":
      return "true or false";
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

/** What a schema's type asks for, in words. */
const EXPECTED = /** @type {Record<string, string>} */ ({ object: "an object", array: "a list", string: "a text", integer: "a whole number", number: "a number", boolean: "true or false", null: "null" });

/**
 * Whether `value` is of the JSON type `type`, exactly.
 * @param {string} type
 * @param {unknown} value
 */
function isType(type, value) {
  switch (type) {
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isSafeInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    default:
      return false;
  }
}

/** A field's path below `path`. @param {string} path @param {string | number} key */
function below(path, key) {
  if (typeof key === "number") return `${path}[${key}]`;
  const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(shortText(key));
  return path ? `${path}.${name}` : name;
}

/**
 * The first place where `value` does not have the shape `schema` describes,
 * or null.
 * @param {any} schema
 * @param {unknown} value
 * @param {string} path
 * @returns {{path: string, reason: string} | null}
 */
export function mismatch(schema, value, path) {
  if (schema.enum && !schema.enum.includes(value)) {
    return { path, reason: `expected one of ${schema.enum.map((/** @type {unknown} */ v) => JSON.stringify(v)).join(", ")}, got ${typeof value === "string" ? JSON.stringify(shortText(value)) : sortOf(value)}` };
  }
  if (schema.type && !isType(schema.type, value)) return { path, reason: `expected ${EXPECTED[schema.type]}, got ${sortOf(value)}` };
  if (typeof value === "string") {
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return { path, reason: `a text of ${value.length} characters, at most ${schema.maxLength}` };
    if (schema.minLength !== undefined && value.length < schema.minLength) return { path, reason: `a text of ${value.length} characters, at least ${schema.minLength}` };
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) return { path, reason: `expected an id of letters and digits, got ${JSON.stringify(shortText(value))}` };
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return { path, reason: `${value} is less than ${schema.minimum}` };
    if (schema.maximum !== undefined && value > schema.maximum) return { path, reason: `${value} is more than ${schema.maximum}` };
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return { path, reason: `a list of ${value.length}, at least ${schema.minItems}` };
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return { path, reason: `a list of ${value.length}, at most ${schema.maxItems}` };
    if (schema.items) {
      for (let i = 0; i < value.length; i += 1) {
        const found = mismatch(schema.items, value[i], below(path, i));
        if (found) return found;
      }
    }
  }
  if (schema.type === "object" && isType("object", value)) {
    const record = /** @type {Record<string, unknown>} */ (value);
    const properties = schema.properties;
    if (properties) {
      for (const key of Object.keys(record)) {
        if (!Object.hasOwn(properties, key)) return { path: below(path, key), reason: "not a field of this request" };
      }
    }
    for (const key of schema.required ?? []) {
      if (!Object.hasOwn(record, key)) return { path: below(path, key), reason: "missing" };
    }
    if (schema.oneOf) {
      const met = schema.oneOf.filter((/** @type {{required: string[]}} */ branch) => branch.required.every((key) => Object.hasOwn(record, key)));
      if (met.length !== 1) return { path, reason: `expected exactly one of ${schema.oneOf.map((/** @type {{required: string[]}} */ b) => b.required.join(" and ")).join(", ")}` };
    }
    if (properties) {
      for (const key of Object.keys(record)) {
        const found = mismatch(properties[key], record[key], below(path, key));
        if (found) return found;
      }
    }
  }
  return null;
}

/**
 * The first place where a value is nested too deep, carries too long a
 * text or field name, or the first field past which the whole is too
 * large; null when none. Walks without recursion and stops at the first
 * fault, so a value a million levels deep costs no more than one
 * `MAX_DEPTH` deep.
 * @param {unknown} value
 * @returns {{path: string, reason: string} | null}
 */
export function oversize(value) {
  let chars = 0;
  /** @type {[unknown, string, number][]} */
  const stack = [[value, "", 0]];
  while (stack.length) {
    const [item, path, depth] = /** @type {[unknown, string, number]} */ (stack.pop());
    if (typeof item === "string") {
      if (item.length > MAX_TEXT_CHARS) return { path: path || "request", reason: `a text of ${item.length} characters, at most ${MAX_TEXT_CHARS}` };
      chars += item.length + 2;
    } else if (item !== null && typeof item === "object") {
      if (depth >= MAX_DEPTH) return { path: path || "request", reason: `nested deeper than ${MAX_DEPTH} levels` };
      if (Array.isArray(item)) {
        chars += 2 + item.length;
        if (item.length > MAX_REQUEST_CHARS) return { path: path || "request", reason: `a list of ${item.length}` };
        for (let i = item.length - 1; i >= 0; i -= 1) stack.push([item[i], below(path, i), depth + 1]);
      } else {
        const keys = Object.keys(item);
        chars += 2 + keys.length;
        if (keys.length > MAX_REQUEST_CHARS) return { path: path || "request", reason: `an object of ${keys.length} fields` };
        for (let i = keys.length - 1; i >= 0; i -= 1) {
          const key = keys[i];
          if (key.length > MAX_TEXT_CHARS) return { path: path || "request", reason: `a field name of ${key.length} characters, at most ${MAX_TEXT_CHARS}` };
          chars += key.length + 3;
          stack.push([/** @type {Record<string, unknown>} */ (item)[key], below(path, key), depth + 1]);
        }
      }
    } else {
      chars += 8;
    }
    if (chars > MAX_REQUEST_CHARS) return { path: path || "request", reason: `the request is larger than ${MAX_REQUEST_CHARS} characters` };
  }
  return null;
}

/**
 * The GM's door: checks a request's data as it arrived (`{kind, payload,
 * requestId, userId}`) and returns it typed, or throws `invalid_input`
 * naming the field's path. Nothing else has run yet.
 * @param {unknown} data
 * @returns {{kind: string, payload: Record<string, any>, requestId: string, userId: string}}
 * @throws {BadRequest} `invalid_input`: nothing changed
 */
export function checkRequest(data) {
  const found = oversize(data) ?? mismatch(ENVELOPE, data, "") ?? kindMismatch(/** @type {any} */ (data)) ?? mismatch(REQUESTS[/** @type {any} */ (data).kind].payload, /** @type {any} */ (data).payload, "payload");
  if (found) throw new BadRequest("invalid_input", `${found.path || "request"}: ${found.reason}; nothing changed`);
  return /** @type {any} */ (data);
}

/** @param {{kind: string}} data */
function kindMismatch(data) {
  return Object.hasOwn(REQUESTS, data.kind) ? null : { path: "kind", reason: `unknown request kind ${JSON.stringify(shortText(data.kind))}` };
}
