/**
 * Combat start: tokens already hiding keep their state, and
 * under opposed rules a hiding combatant's held Stealth total (O1, the
 * engine's `heldTotal`) breaks initiative ties when the GM enables the world
 * setting `initiativeTieBreaker` (off by default). Nothing here decides a
 * rule: the engine's numbers only order combatants whose initiatives are
 * otherwise equal, higher held total first.
 *
 * How a tie-breaker is expressed: dnd5e's own (world setting
 * `dnd5e.initiativeDexTiebreaker`) appends the Dexterity score / 100 to the
 * initiative formula, so a tie-breaker is a fraction of the initiative total
 * (docs/dnd5e-automation.md §7). This one is a finer fraction, in
 * ten-thousandths (the last two digits, below 0.01: under the Dexterity
 * hundredths and any whole point). Secrecy: the initiative is shown to every
 * player in the combat tracker, so the fraction is the hider's rank among
 * the tied hiders (1 for the lowest held total, 2 for the next...), never
 * the total itself, and it is set only when there is a tie to break.
 *
 * Foundry API: `updateCombatant(combatant, changed, options, userId)` and
 * `createCombatant(combatant, options, userId)` on every client after the
 * change (https://foundryvtt.com/api/v12/functions/hookEvents.updateDocument.html,
 * https://foundryvtt.com/api/v12/functions/hookEvents.createDocument.html);
 * `Combatant#initiative`, `Combatant#tokenId`, `Combatant#parent` (the
 * Combat), `Combat#combatants`, `Combat#scene`; the new values are written
 * with one `Combat#updateEmbeddedDocuments("Combatant", updates, options)`
 * (the field `Combat#setInitiative(id, value)` sets,
 * https://foundryvtt.com/api/classes/client.Combat.html).
 */

import { MODULE_ID } from "../constants.mjs";
import { sceneState } from "./scene-state.mjs";
import { t } from "../i18n.mjs";
import { isActiveGM } from "../storage/store.mjs";

/**
 * A combatant as read here (`Combatant` fields of the docs above).
 * @typedef {{id?: string | null, initiative?: number | null, tokenId?: string | null, sceneId?: string | null, parent?: any}} CombatantLike
 */

/** The update option that marks the module's own initiative update (not handled again). */
const OWN_UPDATE = "furtiveTieBreaker";

/** Ten-thousandths per unit, and the most ranks the two last digits hold. */
const SCALE = 10000;
const MAX_RANK = 99;

/**
 * The initiative updates that give each tie its order: for every group of
 * combatants whose initiatives are equal once the last two digits (a
 * tie-breaker) are set aside, each hiding combatant's fraction is its rank
 * among the group's distinct held totals (lowest 1); everyone else's is 0.
 * A group of one gets no fraction.
 * @param {CombatantLike[]} combatants
 * @param {(tokenId: string) => number | null} heldTotalOf the held total of a hiding token, or null
 * @returns {{_id: string, initiative: number}[]} only the combatants whose initiative changes
 */
export function tieBreakerUpdates(combatants, heldTotalOf) {
  /** @type {Map<number, {combatant: CombatantLike, total: number | null}[]>} */
  const groups = new Map();
  for (const combatant of combatants) {
    const initiative = combatant.initiative;
    if (typeof initiative !== "number" || !Number.isFinite(initiative) || !combatant.id) continue;
    const scaled = Math.round(initiative * SCALE);
    const base = scaled - (((scaled % 100) + 100) % 100);
    const group = groups.get(base) ?? [];
    group.push({ combatant, total: combatant.tokenId ? heldTotalOf(combatant.tokenId) : null });
    groups.set(base, group);
  }
  /** @type {{_id: string, initiative: number}[]} */
  const updates = [];
  for (const [base, group] of groups) {
    const totals = [...new Set(group.map((m) => m.total).filter((t) => t !== null))].sort((a, b) => /** @type {number} */ (a) - /** @type {number} */ (b));
    for (const { combatant, total } of group) {
      const rank = group.length > 1 && total !== null ? Math.min(MAX_RANK, totals.indexOf(total) + 1) : 0;
      const initiative = (base + rank) / SCALE;
      if (initiative !== combatant.initiative) updates.push({ _id: /** @type {string} */ (combatant.id), initiative });
    }
  }
  return updates;
}

/**
 * Orders the ties of a combat (setting on, opposed, the combat's scene known).
 * @param {any} combat
 */
async function breakTies(combat) {
  if (!combat || !game.settings.get(MODULE_ID, "initiativeTieBreaker")) return;
  const scene = combat.scene ?? canvas?.scene;
  const state = scene ? sceneState(scene)?.state : null;
  if (!state || state.ruleset !== "opposed") return;
  const heldTotalOf = (/** @type {string} */ tokenId) => {
    const hider = /** @type {any} */ (state.hiders)[tokenId];
    return hider?.phase === "hiding" && typeof hider.heldTotal === "number" ? hider.heldTotal : null;
  };
  const updates = tieBreakerUpdates([...combat.combatants], heldTotalOf);
  if (!updates.length) return;
  await combat.updateEmbeddedDocuments("Combatant", updates, { [OWN_UPDATE]: true }).catch((/** @type {unknown} */ error) => console.error("furtive |", error));
}

/** One pass at a time: several combatants created in one batch each fire the hook. */
let queue = Promise.resolve();

/**
 * Queues `breakTies(combat)` after the passes already asked for. A pass that
 * throws is reported (console, and a GM notification,
 * https://foundryvtt.com/api/classes/foundry.applications.ui.Notifications.html#error)
 * and the queue stays alive: the next pass still runs.
 * @param {any} combat
 */
function queueTies(combat) {
  queue = queue
    .then(() => breakTies(combat))
    .catch((/** @type {unknown} */ error) => {
      console.error("furtive | initiative tie-breaker:", error);
      ui.notifications?.error(t("FURTIVE.Initiative.TieBreakerFailed"));
    });
  return queue;
}

/**
 * `createCombatant(combatant, options, userId)` on the active GM: a
 * combatant added with its initiative.
 * @param {CombatantLike} combatant
 * @param {Record<string, any>} [options]
 */
export async function onCreateCombatant(combatant, options) {
  if (!isActiveGM() || typeof combatant.initiative !== "number" || options?.[OWN_UPDATE]) return;
  await queueTies(combatant.parent);
}

/**
 * `updateCombatant(combatant, changed, options, userId)` on the active GM:
 * a new initiative (not the module's own update).
 * @param {CombatantLike} combatant
 * @param {Record<string, any>} changed
 * @param {Record<string, any>} [options]
 */
export async function onUpdateCombatant(combatant, changed, options) {
  if (!isActiveGM() || !("initiative" in (changed ?? {})) || options?.[OWN_UPDATE]) return;
  await queueTies(combatant.parent);
}
