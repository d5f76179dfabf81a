// Turns Foundry actor data into Furtive creatures.
//
// This is system math (dnd5e skill totals), not stealth rules: the rules
// live in furtive-core. The dnd5e formulas follow the fixture notes in
// shared/fixtures/SOURCES.md:
//   skill total = ability modifier + floor(skill value x proficiency bonus)
//   ability modifier = floor((score - 10) / 2)
//   proficiency bonus = floor((max(CR, 1) + 7) / 4)

/** dnd5e senses that bypass stealth (O13), and whether they give the exact space. */
export const ENHANCED_SENSES = {
  blindsight: { targeting: true },
  tremorsense: { targeting: true },
};

/**
 * @param {number} score ability score
 * @returns {number} the dnd5e ability modifier
 */
export function abilityModifier(score) {
  return Math.floor((score - 10) / 2);
}

/**
 * @param {number} cr challenge rating (fractions allowed)
 * @returns {number} the dnd5e proficiency bonus by CR
 */
export function proficiencyBonus(cr) {
  return Math.floor((Math.max(cr, 1) + 7) / 4);
}

/**
 * The dnd5e skill check modifier, e.g. `skillTotal(actor, "ste")` for Stealth.
 * @param {any} actor a dnd5e Actor document (SRD fixture shape)
 * @param {string} skill skill key (`ste`, `prc`, ...)
 * @returns {number}
 */
export function skillTotal(actor, skill) {
  const entry = actor.system.skills[skill];
  const ability = actor.system.abilities[entry.ability].value;
  const cr = Number(actor.system.details.cr ?? 0);
  return abilityModifier(ability) + Math.floor(entry.value * proficiencyBonus(cr));
}

/**
 * The enhanced senses (O13) of a dnd5e actor, from `system.attributes.senses`
 * in either the SRD 5.1 flat shape or the SRD 5.2 `{ ranges }` shape. Ranges
 * stay in the actor's units (feet in the SRD), the scene's distance unit.
 * @param {any} actor
 * @returns {{ sense: string, range: number, targeting: boolean }[]}
 */
export function enhancedSenses(actor) {
  const senses = actor.system.attributes?.senses ?? {};
  const ranges = senses.ranges ?? senses;
  return Object.entries(ENHANCED_SENSES)
    .filter(([sense]) => Number(ranges[sense]) > 0)
    .map(([sense, { targeting }]) => ({ sense, range: Number(ranges[sense]), targeting }));
}

/** dnd5e senses that see in darkness: darkvision, blindsight and truesight
 * (tremorsense feels, it does not see). */
export const SENSES_IN_DARKNESS = ["darkvision", "blindsight", "truesight"];

/**
 * How far a dnd5e actor sees in darkness, for the engine's scene sight
 * (`darkvision` of `clearViewMatrix`, docs/scene.md "Light and darkness"):
 * the longest of its darkvision, blindsight and truesight, from
 * `system.attributes.senses` in the SRD 5.1 flat shape
 * (`{ darkvision: 60, blindsight: 0, … }`) or the SRD 5.2 `{ ranges }` shape
 * (`null` for none). Feet in the SRD, the scene's distance unit; 0 when the
 * actor has none of them. This reads the sheet; whether the hider is
 * concealed is the engine's decision (B5).
 * @param {any} actor
 * @returns {number}
 */
export function darkvision(actor) {
  const senses = actor.system.attributes?.senses ?? {};
  const ranges = senses.ranges ?? senses;
  return Math.max(0, ...SENSES_IN_DARKNESS.map((sense) => Number(ranges[sense]) || 0));
}

/**
 * A creature for the `opposed` ruleset from a dnd5e actor.
 * @param {any} actor
 * @param {{ id: string, side: string, name?: string }} token
 */
export function opposedCreature(actor, token) {
  return {
    id: token.id,
    name: token.name ?? actor.name,
    side: token.side,
    stealthModifier: skillTotal(actor, "ste"),
    perceptionModifier: skillTotal(actor, "prc"),
    enhancedSenses: enhancedSenses(actor),
  };
}

/**
 * A creature for the `percentile` ruleset from a roster entry (the SRD
 * actors have no Furtivité or acuities, so the scenario's roster gives them).
 * @param {{ stealthSkill?: number, baseStealthSkill?: number, strength?: number,
 *   acuities?: { visual?: number, auditory?: number, olfactory?: number } }} entry
 * @param {{ id: string, side: string, name: string }} token
 */
export function percentileCreature(entry, token) {
  return {
    id: token.id,
    name: token.name,
    side: token.side,
    stealthSkill: entry.stealthSkill ?? 0,
    baseStealthSkill: entry.baseStealthSkill ?? entry.stealthSkill ?? 0,
    strength: entry.strength ?? 0,
    acuities: {
      visual: entry.acuities?.visual ?? 0,
      auditory: entry.acuities?.auditory ?? 0,
      olfactory: entry.acuities?.olfactory ?? 0,
    },
  };
}
