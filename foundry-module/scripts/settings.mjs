/**
 * Every setting of the module, registered in one place (world scope,
 * localized `FURTIVE.Settings.<key>.Name` / `.Hint`), and a typed reader.
 *
 * Foundry API: `game.settings.register(namespace, key, data)`,
 * `game.settings.get(namespace, key)`, `game.settings.set(namespace, key, value)`.
 */

import { MODULE_ID } from "./constants.mjs";
import { PRESETS, presetForSystem } from "./systems/presets.mjs";
import { registerSystemSettings } from "./systems/automation-settings.mjs";

/**
 * The rule-input settings, in the order the settings window shows them: key
 * and type. Their defaults are the generic preset's values (systems/presets.mjs), the
 * one copy of them.
 * @type {[string, StringConstructor | BooleanConstructor][]}
 */
const INPUTS = [
  ["stealthSkillPath", String],
  ["baseStealthSkillPath", String],
  ["visualAcuityPath", String],
  ["auditoryAcuityPath", String],
  ["olfactoryAcuityPath", String],
  ["strengthPath", String],
  ["helmet", String],
  ["stealthFormula", String],
  ["perceptionFormula", String],
  ["enhancedSenses", String],
  ["precautionsPath", String],
  ["darkvisionPath", String],
  ["side", String],
  ["dodgeFormula", String],
  ["parryFormula", String],
  ["blockFormula", String],
];

/**
 * @typedef {object} FurtiveSettings
 * @property {"percentile" | "opposed"} ruleset
 * @property {string} stealthSkillPath      percentile: effective Furtivité % (P1)
 * @property {string} baseStealthSkillPath  percentile: base Furtivité % (P8); empty = same as effective
 * @property {string} visualAcuityPath      percentile (P3)
 * @property {string} auditoryAcuityPath    percentile (P3)
 * @property {string} olfactoryAcuityPath   percentile (P3)
 * @property {string} strengthPath          percentile: Force (P8)
 * @property {string} helmet                "item:word,word" or an attribute path (P8)
 * @property {string} stealthFormula        opposed: the Stealth check (O1)
 * @property {string} perceptionFormula     opposed: the Perception check (O4)
 * @property {string} enhancedSenses        opposed: "sense=path[:targeting]; ..." (O13)
 * @property {string} precautionsPath       opposed: actor path holding precautions (O13)
 * @property {string} darkvisionPath        B5: actor paths (comma-separated) of how far the creature sees in darkness, scene units
 * @property {string} side                  "disposition" or an attribute path
 * @property {string} dodgeFormula
 * @property {string} parryFormula
 * @property {string} blockFormula
 * @property {string[]} ignoredDetectionModes detection mode ids the GM opted out (every other mode is wrapped)
 * @property {boolean} showNumbers          P2: players see their score and modifiers
 * @property {boolean} autoPerception       O4: roll Perception checks automatically
 * @property {boolean} zeroLengthMovement   O1: a zero-length movement may enter stealth
 */

/** @param {string} key */
const label = (key) => ({ name: `FURTIVE.Settings.${key}.Name`, hint: `FURTIVE.Settings.${key}.Hint` });

/**
 * Registers every setting. Call once, in the `init` hook.
 * @param {{onRulesChanged: () => void, onRulesetChanged: () => void, onInputChanged?: () => void}} callbacks called on every
 *   client when a rule setting changes / when the ruleset changes / when a rule input changes
 */
export function registerSettings({ onRulesChanged, onRulesetChanged, onInputChanged }) {
  const settings = game.settings;
  settings.register(MODULE_ID, "preset", {
    ...label("preset"),
    scope: "world",
    config: true,
    type: String,
    choices: {
      custom: "FURTIVE.Settings.preset.custom",
      generic: "FURTIVE.Settings.preset.generic",
      dnd5e: "FURTIVE.Settings.preset.dnd5e",
    },
    default: "custom",
    onChange: (/** @type {string} */ value) => {
      if (value !== "custom" && game.user?.isGM) void applyPreset(/** @type {"generic" | "dnd5e"} */ (value));
    },
  });
  settings.register(MODULE_ID, "ruleset", {
    ...label("ruleset"),
    scope: "world",
    config: true,
    type: String,
    choices: { percentile: "FURTIVE.Ruleset.percentile", opposed: "FURTIVE.Ruleset.opposed" },
    default: /** @type {string} */ (PRESETS.generic.ruleset),
    onChange: onRulesetChanged,
  });
  const defaults = /** @type {Record<string, string | boolean>} */ (PRESETS.generic);
  // Shown in the sub-menu of each ruleset (ui/rules-menu.mjs), not in the main list.
  for (const [key, type] of INPUTS) {
    settings.register(MODULE_ID, key, { ...label(key), scope: "world", config: false, type, default: defaults[key], onChange: onInputChanged });
  }
  settings.register(MODULE_ID, "ignoredDetectionModes", {
    ...label("ignoredDetectionModes"),
    scope: "world",
    config: true,
    type: String,
    default: "",
    requiresReload: true,
  });
  settings.register(MODULE_ID, "showNumbers", {
    ...label("showNumbers"),
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
    onChange: onRulesChanged,
  });
  settings.register(MODULE_ID, "autoPerception", {
    ...label("autoPerception"),
    scope: "world",
    config: true,
    type: Boolean,
    default: true,
  });
  settings.register(MODULE_ID, "zeroLengthMovement", {
    ...label("zeroLengthMovement"),
    scope: "world",
    config: true,
    type: Boolean,
    default: true,
    onChange: onRulesChanged,
  });
  // The game system's rolls, attacks and damage (systems/automation-settings.mjs).
  registerSystemSettings();
  // A hiding combatant's held Stealth total breaks initiative ties (opposed; gm/initiative.mjs).
  settings.register(MODULE_ID, "initiativeTieBreaker", {
    ...label("initiativeTieBreaker"),
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  // B1: a GM's secret roll shows other players Foundry's "privately rolled some dice" line (ui/chat-secrecy.mjs).
  settings.register(MODULE_ID, "secretRollNotice", {
    ...label("secretRollNotice"),
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  // Hidden bookkeeping.
  settings.register(MODULE_ID, "initialized", { scope: "world", config: false, type: Boolean, default: false });
}

/**
 * Reads every setting.
 * @returns {FurtiveSettings}
 */
export function readSettings() {
  /** @param {string} key */
  const get = (key) => game.settings.get(MODULE_ID, key);
  /** @type {Record<string, any>} */
  const values = {};
  for (const [key] of INPUTS) values[key] = String(get(key) ?? "");
  return /** @type {FurtiveSettings} */ ({
    ...values,
    ruleset: get("ruleset") === "opposed" ? "opposed" : "percentile",
    ignoredDetectionModes: String(get("ignoredDetectionModes") ?? "")
      .split(/[\s,;]+/)
      .filter(Boolean),
    showNumbers: Boolean(get("showNumbers")),
    autoPerception: Boolean(get("autoPerception")),
    zeroLengthMovement: Boolean(get("zeroLengthMovement")),
  });
}

/**
 * Writes a preset's values into the settings (GM only).
 * @param {"generic" | "dnd5e"} id
 */
export async function applyPreset(id) {
  const preset = PRESETS[id];
  if (!preset) return;
  // Idempotent: nothing to do when every value already matches.
  if (Object.entries(preset).every(([key, value]) => game.settings.get(MODULE_ID, key) === value)) return;
  for (const [key, value] of Object.entries(preset)) await game.settings.set(MODULE_ID, key, value);
  ui.notifications?.info(game.i18n.format("FURTIVE.Settings.preset.applied", { preset: game.i18n.localize(`FURTIVE.Settings.preset.${id}`) }));
}

/**
 * On the first ready of a world, the GM gets the preset of its game system.
 */
export async function initializeWorld() {
  if (!game.user?.isGM || game.settings.get(MODULE_ID, "initialized")) return;
  const preset = presetForSystem(game.system.id);
  await applyPreset(preset);
  await game.settings.set(MODULE_ID, "preset", preset);
  await game.settings.set(MODULE_ID, "initialized", true);
}
