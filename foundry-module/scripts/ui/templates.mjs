/**
 * Template rendering for v12 and v13.
 *
 * Foundry API: v13 `foundry.applications.handlebars.renderTemplate(path, data)`;
 * v12 the global `renderTemplate(path, data)` (deprecated in v13).
 */

import { modulePath } from "../constants.mjs";

/**
 * Renders one of the module's templates.
 * @param {string} name file name under `templates/`, e.g. `hide-dialog.hbs`
 * @param {object} data
 * @returns {Promise<string>} HTML
 */
export function renderModuleTemplate(name, data) {
  const render = /** @type {any} */ (foundry).applications?.handlebars?.renderTemplate ?? /** @type {any} */ (globalThis).renderTemplate;
  return render(modulePath(`templates/${name}`), data);
}
