/**
 * Presets: where each rule input comes from for a known game system.
 * A preset is a plain map of setting key -> value (see settings.mjs); the GM
 * picks one in the settings and may then edit any value.
 *
 * Attribute paths are read from the Actor document with
 * `foundry.utils.getProperty(actor, path)`; `a|b` tries `a`, then `b`.
 * Formulas are evaluated with `new Roll(formula, actor.getRollData())`.
 */

/** @typedef {Record<string, string | boolean>} Preset */

/**
 * Simple Worldbuilding-style actors: `system.attributes.<key>.value`.
 * @type {Preset}
 */
const generic = {
  ruleset: "percentile",
  stealthSkillPath: "system.attributes.stealth.value",
  baseStealthSkillPath: "system.attributes.stealth_base.value",
  visualAcuityPath: "system.attributes.visual_acuity.value",
  auditoryAcuityPath: "system.attributes.auditory_acuity.value",
  olfactoryAcuityPath: "system.attributes.olfactory_acuity.value",
  strengthPath: "system.attributes.strength.value",
  helmet: "item:helmet,casque,heaume",
  stealthFormula: "1d20 + @attributes.stealth.value",
  perceptionFormula: "1d20 + @attributes.perception.value",
  enhancedSenses: "",
  precautionsPath: "flags.furtive.precautions",
  darkvisionPath: "",
  side: "disposition",
  dodgeFormula: "1d100",
  parryFormula: "1d100",
  blockFormula: "1d100",
};

/**
 * The dnd5e system: opposed checks, Stealth and Perception skill totals,
 * blindsight and tremorsense as targeting enhanced senses (O13), side from
 * the token disposition.
 * @type {Preset}
 */
const dnd5e = {
  ruleset: "opposed",
  stealthSkillPath: "",
  baseStealthSkillPath: "",
  visualAcuityPath: "",
  auditoryAcuityPath: "",
  olfactoryAcuityPath: "",
  strengthPath: "system.abilities.str.value",
  helmet: "item:helmet,helm",
  stealthFormula: "1d20 + @skills.ste.total",
  perceptionFormula: "1d20 + @skills.prc.total",
  enhancedSenses:
    "blindsight=system.attributes.senses.blindsight|system.attributes.senses.ranges.blindsight:targeting; " +
    "tremorsense=system.attributes.senses.tremorsense|system.attributes.senses.ranges.tremorsense:targeting",
  precautionsPath: "flags.furtive.precautions",
  // B5: what sees in darkness (dnd5e 3.x/4.x `senses`, 5.3+ `senses.ranges`; docs/dnd5e-automation.md §5).
  darkvisionPath:
    "system.attributes.senses.ranges.darkvision|system.attributes.senses.darkvision, " +
    "system.attributes.senses.ranges.blindsight|system.attributes.senses.blindsight, " +
    "system.attributes.senses.ranges.truesight|system.attributes.senses.truesight",
  side: "disposition",
  dodgeFormula: "1d20 + @skills.acr.total",
  parryFormula: "1d20 + @skills.ath.total",
  blockFormula: "1d20 + @abilities.str.mod",
};

/** Every preset by id. `custom` changes nothing. */
export const PRESETS = Object.freeze({ generic, dnd5e });

/**
 * The preset that fits a game system id: `dnd5e` for dnd5e, else `generic`.
 * @param {string} systemId `game.system.id`
 * @returns {"generic" | "dnd5e"}
 */
export function presetForSystem(systemId) {
  return systemId === "dnd5e" ? "dnd5e" : "generic";
}
