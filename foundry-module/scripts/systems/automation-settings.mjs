/**
 * The settings of the game-system automation: one switch
 * per roll type, all on by default, and what a generic system's roll
 * messages look like. World scope, localized
 * `FURTIVE.System.Settings.<key>.Name` / `.Hint`.
 *
 * Foundry API: `game.settings.register(namespace, key, data)`,
 * `game.settings.get(namespace, key)` (https://foundryvtt.com/api/classes/foundry.helpers.ClientSettings.html).
 */

import { MODULE_ID } from "../constants.mjs";

/**
 * @typedef {object} SystemSettings
 * @property {boolean} stealthRolls     a Stealth roll from the sheet starts or refreshes a stealth attempt (O1/O7, P1)
 * @property {boolean} perceptionRolls  a Perception roll from the sheet answers a pending check or searches (O4/O9)
 * @property {boolean} offerChecks      the engine's Perception checks go to the observer's owner as a sheet roll (B4)
 * @property {boolean} attacks          an attack roll with targets is one engine attack (O8/O9, P6/P7); O10 on hidden targets
 * @property {boolean} damage           HP lost by a hider is damageTaken (O11)
 * @property {"ask" | "noisy" | "silent"} attackNoise O8: how a system attack from hiding is classed; `ask` opens the GM's Attack dialog
 * @property {string} stealthMatch      generic systems: how a Stealth roll message is recognised (see {@link matchSpecs})
 * @property {string} perceptionMatch   generic systems: same for Perception
 * @property {string} attackMatch       generic systems: same for an attack roll
 * @property {string} areaMatch         generic systems: same for an area effect (with or without a roll): one attack on the user's targets, `area: true` (O8, systems/areas.mjs)
 * @property {string} hpPath            generic systems: the actor's HP value path (O11 on a decrease)
 */

/** Boolean switches, all on by default. */
const SWITCHES = ["stealthRolls", "perceptionRolls", "offerChecks", "attacks", "damage"];
/** Strings for generic systems, with their defaults. */
const STRINGS = { stealthMatch: "", perceptionMatch: "", attackMatch: "", areaMatch: "", hpPath: "system.attributes.hp.value" };

/** @param {string} key */
const label = (key) => ({ name: `FURTIVE.System.Settings.${key}.Name`, hint: `FURTIVE.System.Settings.${key}.Hint` });

/** The setting key of a system setting (prefixed, so it cannot clash with the rule settings). */
const keyOf = (/** @type {string} */ key) => `system${key[0].toUpperCase()}${key.slice(1)}`;

/**
 * Registers the system automation settings. Call once, in the `init` hook.
 */
export function registerSystemSettings() {
  const settings = game.settings;
  for (const key of SWITCHES) settings.register(MODULE_ID, keyOf(key), { ...label(key), scope: "world", config: true, type: Boolean, default: true });
  settings.register(MODULE_ID, keyOf("attackNoise"), {
    ...label("attackNoise"),
    scope: "world",
    config: true,
    type: String,
    choices: { ask: "FURTIVE.System.Settings.attackNoise.ask", noisy: "FURTIVE.System.Settings.attackNoise.noisy", silent: "FURTIVE.System.Settings.attackNoise.silent" },
    default: "ask",
  });
  for (const [key, value] of Object.entries(STRINGS)) settings.register(MODULE_ID, keyOf(key), { ...label(key), scope: "world", config: true, type: String, default: value });
}

/**
 * Reads the system automation settings.
 * @returns {SystemSettings}
 */
export function readSystemSettings() {
  /** @param {string} key */
  const get = (key) => game.settings.get(MODULE_ID, keyOf(key));
  const noise = String(get("attackNoise"));
  return {
    stealthRolls: Boolean(get("stealthRolls")),
    perceptionRolls: Boolean(get("perceptionRolls")),
    offerChecks: Boolean(get("offerChecks")),
    attacks: Boolean(get("attacks")),
    damage: Boolean(get("damage")),
    attackNoise: noise === "noisy" || noise === "silent" ? noise : "ask",
    stealthMatch: String(get("stealthMatch") ?? ""),
    perceptionMatch: String(get("perceptionMatch") ?? ""),
    attackMatch: String(get("attackMatch") ?? ""),
    areaMatch: String(get("areaMatch") ?? ""),
    hpPath: String(get("hpPath") ?? "").trim(),
  };
}

/**
 * @typedef {{kind: "flag", path: string, value: string} | {kind: "formula", formula: string}} MatchSpec
 */

/**
 * Parses a match setting: entries separated by `;`, each either a flag test
 * `flags.<scope>.<path>=<value>` (the message's flag at that path, as text,
 * equals the value) or a roll formula with `@` data references (the message's
 * first roll has that formula once filled with the speaker actor's roll data,
 * spaces ignored). Empty: nothing matches.
 * @param {string} text e.g. `flags.mysystem.skill=stealth; 1d20 + @attributes.stealth.value`
 * @returns {MatchSpec[]}
 */
export function matchSpecs(text) {
  return String(text)
    .split(";")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const flag = /^(flags\.[^=\s]+)\s*=\s*(.*)$/.exec(entry);
      if (flag) return /** @type {MatchSpec} */ ({ kind: "flag", path: flag[1], value: flag[2].trim() });
      return /** @type {MatchSpec} */ ({ kind: "formula", formula: entry });
    });
}

/**
 * Whether a chat message matches a match setting (see {@link matchSpecs}).
 * Foundry API: `new Roll(formula, data).formula` (data references replaced),
 * `ChatMessage#rolls` (https://foundryvtt.com/api/classes/foundry.dice.Roll.html).
 * @param {ChatMessage} message
 * @param {string} text the setting
 * @param {Actor | null} actor the speaker's actor (roll data for formulas)
 */
export function messageMatches(message, text, actor) {
  const specs = matchSpecs(text);
  if (!specs.length) return false;
  const roll = /** @type {any} */ (message).rolls?.[0];
  const squash = (/** @type {string} */ formula) => formula.replace(/\s+/g, "");
  for (const spec of specs) {
    if (spec.kind === "flag") {
      const value = foundry.utils.getProperty(/** @type {any} */ (message), spec.path);
      if (value !== undefined && value !== null && String(value) === spec.value) return true;
    } else if (roll && typeof roll.formula === "string") {
      try {
        const expected = new Roll(spec.formula, actor?.getRollData?.() ?? {}).formula;
        if (squash(expected) === squash(roll.formula)) return true;
      } catch {
        // A formula Foundry cannot parse matches nothing.
      }
    }
  }
  return false;
}
