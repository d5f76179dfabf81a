/**
 * The rule inputs, grouped in one settings sub-menu per ruleset:
 * "Percentile rule inputs" and "Opposed rule inputs", each a form with
 * the inputs that ruleset reads (the defense formulas and the side serve
 * both). The settings themselves stay world settings (settings.mjs, hidden
 * from the main settings list); their defaults are the generic preset's
 * (systems/presets.mjs), shown as each field's placeholder.
 *
 * Foundry API: `game.settings.registerMenu(namespace, key, {name, label, hint,
 * icon, type, restricted})` (`SettingSubmenuConfig`, `type` an ApplicationV2
 * class in v13 and v14, https://foundryvtt.com/api/interfaces/foundry.types.SettingSubmenuConfig.html):
 * `HandlebarsApplicationMixin(ApplicationV2)` (`foundry.applications.api`) with
 * `tag: "form"`, `form: {handler, closeOnSubmit}` (`ApplicationFormConfiguration`)
 * and one template part (`static PARTS`); the handler gets `(event, form,
 * formData)` with `formData.object`
 * (https://foundryvtt.com/api/types/foundry.applications.types.ApplicationFormSubmission.html).
 */

import { MODULE_ID, modulePath } from "../constants.mjs";
import { t } from "../i18n.mjs";
import { PRESETS } from "../systems/presets.mjs";

/** The rule inputs each ruleset reads (16 in all; the sight in darkness, the side and the defense formulas serve both). */
export const RULESET_INPUTS = Object.freeze({
  percentile: ["stealthSkillPath", "baseStealthSkillPath", "visualAcuityPath", "auditoryAcuityPath", "olfactoryAcuityPath", "strengthPath", "helmet", "darkvisionPath", "side", "dodgeFormula", "parryFormula", "blockFormula"],
  opposed: ["stealthFormula", "perceptionFormula", "enhancedSenses", "precautionsPath", "darkvisionPath", "side", "dodgeFormula", "parryFormula", "blockFormula"],
});

/** @typedef {keyof typeof RULESET_INPUTS} Ruleset */

/**
 * What the form shows: each input's localized name and hint, its value now
 * and the generic preset's value (its default).
 * @param {Ruleset} ruleset
 */
function menuContext(ruleset) {
  const defaults = /** @type {Record<string, string | boolean>} */ (PRESETS.generic);
  return {
    ruleset,
    intro: t(`FURTIVE.Settings.RulesMenu.${ruleset}.Hint`),
    save: t("FURTIVE.Settings.RulesMenu.Save"),
    fields: RULESET_INPUTS[ruleset].map((key) => ({
      key,
      name: t(`FURTIVE.Settings.${key}.Name`),
      hint: t(`FURTIVE.Settings.${key}.Hint`),
      value: String(game.settings.get(MODULE_ID, key) ?? ""),
      preset: String(defaults[key] ?? ""),
    })),
  };
}

/** Saves of the rule menus under way on this client (their per-input syncs are held). */
let saving = 0;

/** Called once after a save that changed inputs (main.mjs: the viewed scene is synced once). */
let afterSave = () => {};

/**
 * Whether this client is saving a rule menu now: each changed setting's
 * `onChange` (settings.mjs `onInputChanged`) then leaves the scene alone,
 * and the save syncs it once at the end.
 * @returns {boolean}
 */
export function savingRuleInputs() {
  return saving > 0;
}

/**
 * Saves the form's values as one transaction: each input of the ruleset that
 * changed is set (trimmed; an input the form lacks keeps its value), with the
 * per-setting scene syncs held, then the scene is synced once. GM only (the
 * menus are restricted).
 * @param {Ruleset} ruleset
 * @param {Record<string, unknown>} values the form's data by input name
 * @returns {Promise<number>} how many inputs changed
 */
export async function saveRuleInputs(ruleset, values) {
  let changed = 0;
  saving += 1;
  try {
    for (const key of RULESET_INPUTS[ruleset]) {
      if (!(key in values)) continue;
      const value = String(values[key] ?? "").trim();
      if (value === game.settings.get(MODULE_ID, key)) continue;
      await game.settings.set(MODULE_ID, key, value);
      changed += 1;
    }
  } finally {
    saving -= 1;
    if (changed > 0 && saving === 0) afterSave();
  }
  return changed;
}

/**
 * The menu's application class.
 * @param {Ruleset} ruleset
 * @returns {any}
 */
function menuClass(ruleset) {
  const id = `${MODULE_ID}-rules-${ruleset}`;
  const title = () => t(`FURTIVE.Settings.RulesMenu.${ruleset}.Name`);
  const template = modulePath("templates/rules-menu.hbs");
  const api = /** @type {any} */ (foundry).applications.api;
  return class RulesMenu extends api.HandlebarsApplicationMixin(api.ApplicationV2) {
    static DEFAULT_OPTIONS = {
      id,
      tag: "form",
      window: { title: `FURTIVE.Settings.RulesMenu.${ruleset}.Name` },
      form: {
        /** @param {Event} _event @param {HTMLFormElement} _form @param {{object: Record<string, unknown>}} formData */
        handler: async (_event, _form, formData) => saveRuleInputs(ruleset, formData.object),
        closeOnSubmit: true,
      },
    };

    static PARTS = { form: { template } };

    get title() {
      return title();
    }

    async _prepareContext() {
      return menuContext(ruleset);
    }
  };
}

/**
 * Registers one restricted sub-menu per ruleset. Call at `init`, after the settings.
 * @param {{onSaved: () => void}} [callbacks] `onSaved`: called once after a Save that changed inputs
 */
export function registerRulesMenus({ onSaved } = { onSaved: () => {} }) {
  afterSave = onSaved;
  for (const ruleset of /** @type {Ruleset[]} */ (["percentile", "opposed"])) {
    game.settings.registerMenu(MODULE_ID, `rules-${ruleset}`, {
      name: `FURTIVE.Settings.RulesMenu.${ruleset}.Name`,
      label: `FURTIVE.Settings.RulesMenu.${ruleset}.Label`,
      hint: `FURTIVE.Settings.RulesMenu.${ruleset}.Hint`,
      icon: "fa-solid fa-user-secret",
      type: menuClass(ruleset),
      restricted: true,
    });
  }
}
