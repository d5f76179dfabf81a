/**
 * Rule inputs read from Foundry data, as the settings say: attribute paths
 * on the Actor, roll formulas, the token disposition. No rule logic: the
 * numbers go to the engine as they are (the engine refuses out-of-range
 * values with a message naming the field).
 *
 * Foundry API: `foundry.utils.getProperty(object, path)`,
 * `TokenDocument#actor`, `TokenDocument#disposition`, `Actor#items`.
 */

import { dnd5eGeneration, dnd5eSenseInUnits } from "./dnd5e.mjs";

/** @typedef {import("../types.mjs").Creature} Creature */
/** @typedef {import("../settings.mjs").FurtiveSettings} FurtiveSettings */

/**
 * Reads an attribute path on a document; `a|b` tries each in turn.
 * @param {object | null | undefined} document
 * @param {string} path
 * @returns {unknown} the first value that is neither undefined nor null
 */
export function readPath(document, path) {
  if (!document || !path) return undefined;
  for (const candidate of path.split("|").map((p) => p.trim()).filter(Boolean)) {
    const value = foundry.utils.getProperty(document, candidate);
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

/**
 * A whole number read from a path; missing or not numeric -> 0 (P11: no skill is 0).
 * @param {object | null | undefined} document
 * @param {string} path
 */
export function readInteger(document, path) {
  const value = Number(readPath(document, path));
  return Number.isFinite(value) ? Math.trunc(value) : 0;
}

/** Token disposition -> side name (`CONST.TOKEN_DISPOSITIONS`). */
const DISPOSITION_SIDES = /** @type {Record<string, string>} */ ({ "1": "friendly", "0": "neutral", "-1": "hostile", "-2": "secret" });

/**
 * The token's side: from its disposition, or from an attribute path.
 * @param {TokenDocument} token
 * @param {FurtiveSettings} settings
 */
export function sideOf(token, settings) {
  if (!settings.side || settings.side === "disposition") return DISPOSITION_SIDES[String(token.disposition)] ?? "neutral";
  const value = readPath(token.actor, settings.side);
  return value === undefined ? "neutral" : String(value);
}

/**
 * A sense range read from an actor, in the scene's units: the game system
 * states its own units (dnd5e, {@link dnd5eSenseInUnits}); other systems'
 * ranges are taken as the scene's.
 * @param {Actor | null} actor
 * @param {number} range
 * @param {Scene | null | undefined} scene
 * @returns {number}
 */
export function senseInSceneUnits(actor, range, scene) {
  if (!dnd5eGeneration()) return range;
  return dnd5eSenseInUnits(actor, range, /** @type {any} */ (scene)?.grid?.units);
}

/**
 * Enhanced senses from the setting `"sense=path[:targeting]; ..."` (O13), in
 * the scene's units. A sense whose range is missing or 0 is left out.
 * @param {Actor | null} actor
 * @param {string} spec
 * @param {Scene | null} [scene] the token's scene, for the units
 * @returns {{sense: string, range: number, targeting: boolean}[]}
 */
export function enhancedSenses(actor, spec, scene = null) {
  if (!actor || !spec) return [];
  const senses = [];
  for (const part of spec.split(/[;,\n]/).map((p) => p.trim()).filter(Boolean)) {
    const match = /^([^=]+)=(.+?)(?::(targeting))?$/.exec(part);
    if (!match) continue;
    const range = senseInSceneUnits(actor, Number(readPath(actor, match[2].trim())), scene);
    if (Number.isFinite(range) && range > 0) senses.push({ sense: match[1].trim(), range, targeting: match[3] === "targeting" });
  }
  return senses;
}

/**
 * The sense names listed in the enhanced-senses setting (for the Hide
 * dialog's precaution boxes).
 * @param {string} spec
 */
export function senseNames(spec) {
  return (spec ?? "")
    .split(/[;,\n]/)
    .map((p) => p.split("=")[0].trim())
    .filter(Boolean);
}

/**
 * Precautions the actor has taken against enhanced senses (O13), from the
 * precautions path: an array or a comma-separated string of sense names.
 * @param {Actor | null} actor
 * @param {string} path
 * @returns {string[]}
 */
export function precautionsOf(actor, path) {
  const value = readPath(actor, path);
  if (Array.isArray(value)) return value.map(String).filter(Boolean);
  if (typeof value === "string") return value.split(/[\s,;]+/).filter(Boolean);
  return [];
}

/**
 * Whether the actor wears a helmet (P8), per the `helmet` setting:
 * `item:word,word` looks for an item whose name contains one of the words and
 * that is not unequipped (`system.equipped === false`); anything else is an
 * attribute path read as a boolean.
 * @param {Actor | null} actor
 * @param {string} rule
 */
export function wearsHelmet(actor, rule) {
  if (!actor || !rule) return false;
  if (rule.startsWith("item:")) {
    const words = rule.slice(5).split(",").map((w) => w.trim().toLowerCase()).filter(Boolean);
    for (const item of actor.items ?? []) {
      const name = String(item.name ?? "").toLowerCase();
      const equipped = /** @type {any} */ (item).system?.equipped;
      if (equipped !== false && words.some((w) => name.includes(w))) return true;
    }
    return false;
  }
  return Boolean(readPath(actor, rule));
}

/**
 * Most characters of a creature's name the engine takes (validate.rs
 * MAX_TEXT_CHARS, counted in Unicode characters as `[...text]` counts them).
 */
const NAME_CHARACTERS = 256;

/**
 * The engine creature for a token (id = TokenDocument id). Its name is the
 * token's (TokenDocument#name, free text), else the actor's, cut to the
 * first 256 characters: the name is only what explanations call the token.
 * @param {TokenDocument} token
 * @param {FurtiveSettings} settings
 * @returns {Creature}
 */
export function creatureOf(token, settings) {
  const actor = token.actor ?? null;
  const name = [...String(token.name ?? actor?.name ?? "")].slice(0, NAME_CHARACTERS).join("");
  /** @type {Creature} */
  const creature = { id: /** @type {string} */ (token.id), name, side: sideOf(token, settings) };
  if (settings.ruleset === "percentile") {
    creature.stealthSkill = readInteger(actor, settings.stealthSkillPath);
    if (settings.baseStealthSkillPath && readPath(actor, settings.baseStealthSkillPath) !== undefined) {
      creature.baseStealthSkill = readInteger(actor, settings.baseStealthSkillPath);
    }
    creature.strength = readInteger(actor, settings.strengthPath);
    creature.acuities = {
      visual: readInteger(actor, settings.visualAcuityPath),
      auditory: readInteger(actor, settings.auditoryAcuityPath),
      olfactory: readInteger(actor, settings.olfactoryAcuityPath),
    };
  } else {
    creature.enhancedSenses = enhancedSenses(actor, settings.enhancedSenses, token.parent);
  }
  return creature;
}

/**
 * Whether a token takes part in stealth: it has an actor.
 * @param {TokenDocument} token
 */
export function isCreatureToken(token) {
  return Boolean(token?.id && token.actor);
}
