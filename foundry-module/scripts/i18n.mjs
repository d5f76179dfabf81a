/**
 * Language helpers: the engine writes every explanation in English and
 * French (B3); the client shows the one of its language.
 *
 * Foundry API: `game.i18n.lang`, `game.i18n.localize(key)`, `game.i18n.format(key, data)`.
 */

/** Whether this client reads French. */
export function isFrench() {
  return String(game.i18n?.lang ?? "en").toLowerCase().startsWith("fr");
}

/**
 * The text of an engine entry (log entry, decision) in the client's language.
 * @param {{en: string, fr: string}} entry
 */
export function engineText(entry) {
  return isFrench() ? entry.fr : entry.en;
}

/**
 * A localized string.
 * @param {string} key `FURTIVE.*`
 * @param {Record<string, string | number>} [data]
 */
export function t(key, data) {
  return data ? game.i18n.format(key, data) : game.i18n.localize(key);
}

/**
 * Names joined as a list ("A, B and C", "A, B et C"), in `lang` (default:
 * the client's language), with the standard `Intl.ListFormat`
 * (https://developer.mozilla.org/docs/Web/JavaScript/Reference/Global_Objects/Intl/ListFormat).
 * @param {string[]} names
 * @param {string} [lang] a language code, e.g. "en" or "fr"
 */
export function listOf(names, lang = String(game.i18n?.lang ?? "en")) {
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(names);
}

/**
 * A sense's name in the client's language (the Hide dialog's precautions,
 * O13). The senses are the ids of the `enhancedSenses` setting: a game
 * system's sense ids (dnd5e's `blindsight`, `tremorsense`, ...) or Foundry
 * detection mode ids, the keys of `CONFIG.Canvas.detectionModes` (core
 * registers `lightPerception`, `basicSight`, `seeInvisibility`,
 * `senseInvisibility`, `feelTremor`, `seeAll`, `senseAll`:
 * https://foundryvtt.com/api/variables/CONFIG.Canvas.html,
 * https://foundryvtt.com/api/classes/foundry.canvas.perception.DetectionMode.html).
 * Known ids have a `FURTIVE.Sense.<id>` key; any other reads as words
 * ("keenSmell", "keen_smell" -> "Keen smell"). `Localization#has(key)`:
 * https://foundryvtt.com/api/classes/foundry.helpers.Localization.html
 * @param {string} id a sense id as the setting names it
 * @returns {string}
 */
export function senseLabel(id) {
  const key = `FURTIVE.Sense.${id}`;
  if (game.i18n.has?.(key)) return t(key);
  const words = id
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : id;
}

/** Both lang files (`lang/en.json`, `lang/fr.json`), once loaded. @type {{en: any, fr: any} | null} */
let languages = null;

/**
 * Loads both of the module's lang files (at `ready`), so a note the module
 * stores for every reader (a GM card entry) holds both languages whatever
 * the poster's: `game.i18n` holds only the client's language (and English as
 * its fallback), https://foundryvtt.com/api/classes/foundry.helpers.Localization.html.
 * The files are the ones module.json's `languages` lists, next to this script.
 * @returns {Promise<void>}
 */
export async function loadBothLanguages() {
  const read = async (/** @type {string} */ lang) => {
    const response = await fetch(new URL(`../lang/${lang}.json`, import.meta.url));
    if (!response.ok) throw new Error(`lang/${lang}.json: ${response.status}`);
    return response.json();
  };
  const [en, fr] = await Promise.all([read("en"), read("fr")]);
  languages = { en, fr };
}

/**
 * A module text in English and in French, from the lang files: `{name}`
 * placeholders filled from `data`, as `game.i18n.format` does. Before the
 * files are loaded (or if loading failed), both hold this client's text.
 * @param {string} key `FURTIVE.*`
 * @param {Record<string, string | number>} [data]
 * @returns {{en: string, fr: string}}
 */
export function bilingual(key, data = {}) {
  const format = (/** @type {any} */ file) => {
    const template = foundry.utils.getProperty(file, key);
    if (typeof template !== "string") return t(key, data);
    return template.replace(/{[^}]+}/g, (match) => String(data[match.slice(1, -1)]));
  };
  if (!languages) {
    const text = t(key, data);
    return { en: text, fr: text };
  }
  return { en: format(languages.en), fr: format(languages.fr) };
}

/**
 * A user-facing message for an engine refusal: the localized sentence for
 * its code, then the engine's own message (which names the field).
 * @param {{code?: string, message: string}} error
 */
export function refusalText(error) {
  const key = `FURTIVE.Error.${error.code ?? "unknown"}`;
  const localized = game.i18n.has?.(key) ? game.i18n.localize(key) : game.i18n.localize("FURTIVE.Error.unknown");
  return `${localized} (${error.message})`;
}

/**
 * Escapes text for HTML.
 * @param {unknown} text
 */
export function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}
