/**
 * Template rendering.
 *
 * Foundry API: `foundry.applications.handlebars.renderTemplate(path, data)`
 * (v13 and v14; the v12 global `renderTemplate` is deprecated since 13).
 */

import { modulePath } from "../constants.mjs";

/**
 * Renders one of the module's templates.
 * @param {string} name file name under `templates/`, e.g. `hide-dialog.hbs`
 * @param {object} data
 * @returns {Promise<string>} HTML
 */
export function renderModuleTemplate(name, data) {
  return /** @type {any} */ (foundry).applications.handlebars.renderTemplate(modulePath(`templates/${name}`), data);
}
