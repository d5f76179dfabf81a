/**
 * Combat start (issue 12 §5): tokens already hiding keep their state, and
 * under opposed rules a hiding combatant's held Stealth total (O1, the
 * engine's `heldTotal`) breaks initiative ties when the GM enables the world
 * setting `initiativeTieBreaker` (off by default). Nothing here decides a
 * rule: the engine's number goes into the initiative as it is.
 *
 * How a tie-breaker is expressed: dnd5e's own (world setting
 * `dnd5e.initiativeDexTiebreaker`) appends the Dexterity score / 100 to the
 * initiative formula, so a tie-breaker is a fraction of the initiative total
 * (docs/dnd5e-automation.md §7). The held total is added as a finer fraction,
 * `total / 10000` with the total taken in 0..99, so it never reaches 0.01
 * and never outweighs the Dexterity fraction or a whole point: it only
 * orders combatants whose initiatives are otherwise equal.
 *
 * Foundry API: `updateCombatant(combatant, changed, options, userId)` and
 * `createCombatant(combatant, options, userId)` on every client after the
 * change (https://foundryvtt.com/api/v12/functions/hookEvents.updateDocument.html,
 * https://foundryvtt.com/api/v12/functions/hookEvents.createDocument.html);
 * `Combatant#initiative`, `Combatant#tokenId`, `Combatant#sceneId`; the new
 * value is written with `Combatant#update({initiative})` (`Document#update`,
 * the field `Combat#setInitiative(id, value)` sets,
 * https://foundryvtt.com/api/classes/client.Combat.html).
 */

import { MODULE_ID } from "./constants.mjs";
import { viewState } from "./gm-pipeline.mjs";
import { isActiveGM } from "./store.mjs";

/**
 * A combatant as read here (`Combatant` fields of the docs above).
 * @typedef {{initiative?: number | null, tokenId?: string | null, sceneId?: string | null, parent?: any, update(data: object, options?: object): Promise<unknown>}} CombatantLike
 */

/** The update option that marks the module's own initiative update (no second pass). */
const OWN_UPDATE = "furtiveTieBreaker";

/**
 * The tie-breaker fraction for a held total: `total / 10000`, the total
 * taken as a whole number in 0..99 (so the fraction stays below 0.01).
 * @param {number} heldTotal the engine's `heldTotal` (O1)
 * @returns {number} 0 .. 0.0099
 */
export function tieBreakerFraction(heldTotal) {
  const total = Math.min(99, Math.max(0, Math.trunc(Number(heldTotal) || 0)));
  return total / 10000;
}

/**
 * The initiative with the hider's tie-breaker, or null when none applies:
 * setting off, percentile, not a hiding combatant, no initiative yet.
 * @param {CombatantLike} combatant
 * @returns {number | null}
 */
export function initiativeWithTieBreaker(combatant) {
  if (!game.settings.get(MODULE_ID, "initiativeTieBreaker")) return null;
  const initiative = combatant.initiative;
  if (typeof initiative !== "number" || !Number.isFinite(initiative)) return null;
  const sceneId = combatant.sceneId ?? combatant.parent?.scene?.id;
  const scene = game.scenes.get(sceneId) ?? canvas?.scene;
  if (!scene) return null;
  const state = viewState(scene);
  if (!state || state.ruleset !== "opposed") return null;
  const hider = /** @type {any} */ (state.hiders)[String(combatant.tokenId ?? "")];
  if (!hider || hider.phase !== "hiding" || typeof hider.heldTotal !== "number") return null;
  // In ten-thousandths: the whole and hundredths (a Dexterity tie-breaker) are kept, a former
  // tie-breaker in the last two digits is replaced.
  const scaled = Math.round(initiative * 10000);
  const value = (scaled - (((scaled % 100) + 100) % 100) + Math.round(tieBreakerFraction(hider.heldTotal) * 10000)) / 10000;
  return value === initiative ? null : value;
}

/**
 * Writes the tie-breaker into a hiding combatant's initiative (one more
 * update, marked so that it is not handled again).
 * @param {CombatantLike} combatant
 */
async function applyTieBreaker(combatant) {
  const value = initiativeWithTieBreaker(combatant);
  if (value === null) return;
  await combatant.update({ initiative: value }, { [OWN_UPDATE]: true }).catch((/** @type {unknown} */ error) => console.error("furtive |", error));
}

/**
 * `createCombatant(combatant, options, userId)` on the active GM: a
 * combatant added with its initiative.
 * @param {CombatantLike} combatant
 */
export async function onCreateCombatant(combatant) {
  if (!isActiveGM()) return;
  await applyTieBreaker(combatant);
}

/**
 * `updateCombatant(combatant, changed, options, userId)` on the active GM:
 * a new initiative (not the module's own update).
 * @param {CombatantLike} combatant
 * @param {Record<string, any>} changed
 * @param {Record<string, any>} options
 */
export async function onUpdateCombatant(combatant, changed, options) {
  if (!isActiveGM() || !("initiative" in (changed ?? {})) || options?.[OWN_UPDATE]) return;
  await applyTieBreaker(combatant);
}
