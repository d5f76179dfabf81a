/**
 * The combat tracker (B1): a player none of whose tokens perceives a hider
 * does not get its row, so neither its name, portrait and initiative nor its
 * turn (the current-turn highlight is that row). Players who perceive it
 * see it as usual; the GM sees every row.
 *
 * Foundry renders the tracker (`CombatTracker`, an ApplicationV2,
 * https://foundryvtt.com/api/classes/foundry.applications.sidebar.tabs.CombatTracker.html,
 * https://foundryvtt.com/api/v14/classes/foundry.applications.sidebar.tabs.CombatTracker.html)
 * and calls the `renderCombatTracker(application, element, context, options)`
 * hook after each render, sidebar and pop-out alike (ApplicationV2 render
 * hooks, one per class of the chain, `hookEvents.renderApplicationV2`,
 * https://foundryvtt.com/api/functions/hookEvents.renderApplicationV2.html).
 * Each combatant's row carries `data-combatant-id` (PF2e Visioner hides
 * undetected combatants' rows by it on v13 and v14,
 * https://github.com/roi007leaf/pf2e-visioner
 * scripts/services/EncounterStealthInitiativeService.js). The row is
 * removed from the pending HTML; when the scene's lookup changes, every
 * client renders the tracker again (hooks.mjs).
 */

import { mayName, sceneLookup } from "./secrecy.mjs";

/**
 * `renderCombatTracker`: removes the rows of hiders this user may not see named.
 * @param {any} application the CombatTracker
 * @param {HTMLElement} element its HTML (v13 and v14)
 */
export function onRenderCombatTracker(application, element) {
  const user = game.user;
  if (!user || user.isGM) return;
  const root = element instanceof HTMLElement ? element : null;
  const combat = application?.viewed ?? game.combat;
  if (!root || !combat) return;
  /** @type {Map<string, ReturnType<typeof sceneLookup>>} */
  const lookups = new Map();
  for (const row of root.querySelectorAll("[data-combatant-id]")) {
    const combatant = combat.combatants?.get(/** @type {HTMLElement} */ (row).dataset.combatantId);
    const token = combatant?.token;
    const scene = token?.parent;
    if (!token || !scene) continue;
    if (!lookups.has(scene.id)) lookups.set(scene.id, sceneLookup(scene));
    const lookup = /** @type {ReturnType<typeof sceneLookup>} */ (lookups.get(scene.id));
    if (lookup.hiders.has(String(token.id)) && !mayName(user, token, lookup)) row.remove();
  }
}

/**
 * Renders the tracker again when it shows a combatant of this scene (its lookup changed).
 * @param {Scene} scene
 */
export function refreshCombatTracker(scene) {
  const combat = /** @type {any} */ (ui).combat?.viewed ?? game.combat;
  if (!combat?.combatants?.some((/** @type {any} */ c) => c.token?.parent?.id === scene.id)) return;
  /** @type {any} */ (ui).combat?.render?.();
}
