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
