/**
 * The combat tracker (`CombatTracker`, an ApplicationV2 in the sidebar, v13
 * https://foundryvtt.com/api/classes/foundry.applications.sidebar.tabs.CombatTracker.html,
 * v14 https://foundryvtt.com/api/v14/classes/foundry.applications.sidebar.tabs.CombatTracker.html):
 * `ui.combat`, `viewed` (the combat shown: `game.combat`), rendered into the
 * DOM with one `<li class="combatant" data-combatant-id>` per combatant the
 * user may see (PF2e Visioner reads the rows by that attribute on v13 and v14),
 * `active` on the combatant whose turn it is, then the
 * `renderCombatTracker(application, element, context, options)` hook
 * (ApplicationV2 render hooks, applications.mjs).
 * Which combatants a player sees: those not `hidden` ("Is this Combatant
 * currently hidden?", CombatantData) and their own (`Combatant#visible`,
 * documents.mjs); a GM sees every one. Foundry renders the tracker again
 * when the viewed combat or its combatants change ("If this is the currently
 * viewed encounter, re-render the CombatTracker application",
 * `Combat#debounceSetup`, https://foundryvtt.com/api/classes/client.Combat.html);
 * the fake does so after each such change (client.mjs).
 * Its markup beyond the rows' attribute is the fake's own.
 */

/**
 * @param {object} ctx the client context
 * @param {any} ApplicationV2 the fake's ApplicationV2
 */
export function createCombatTracker(ctx, ApplicationV2) {
  return class CombatTracker extends ApplicationV2 {
    static DEFAULT_OPTIONS = { id: "combat", window: { title: "Combat Tracker" } };

    get viewed() {
      return ctx.game.combat;
    }

    async _prepareContext() {
      const combat = this.viewed;
      const current = combat?.combatant ?? null;
      const turns = (combat?.turns ?? []).filter((combatant) => combatant.visible).map((combatant) => ({ id: combatant.id, name: combatant.name, initiative: combatant.initiative, active: combatant === current }));
      return { combat, round: combat?._source.round ?? 0, turns };
    }

    async _renderHTML(context) {
      const doc = ctx.global.document;
      const list = doc.createElement("ol");
      list.className = "combat-tracker plain";
      const title = doc.createElement("h3");
      title.className = "encounter-title";
      title.textContent = context.combat ? `Round ${context.round}` : "No encounter";
      for (const turn of context.turns) {
        const row = doc.createElement("li");
        row.className = `combatant${turn.active ? " active" : ""}`;
        row.dataset.combatantId = turn.id;
        const name = doc.createElement("strong");
        name.className = "name";
        name.textContent = turn.name;
        const initiative = doc.createElement("span");
        initiative.className = "initiative";
        initiative.textContent = turn.initiative === null || turn.initiative === undefined ? "" : String(turn.initiative);
        row.append(name, initiative);
        list.append(row);
      }
      return { header: title, tracker: list };
    }
  };
}
