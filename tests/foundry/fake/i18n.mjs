/**
 * `game.i18n` (v13/v14 `foundry.helpers.Localization`).
 * - Translations come from the `languages` entries of each active package's
 *   manifest for the client's `lang`, plus English as the fallback (`_fallback`)
 *   when the language is not English. Files are fetched from the package folder.
 * - Translation files may be flat (`"FURTIVE.Hide": "..."`) or nested; dotted keys
 *   are expanded when merged (`mergeObject` expands dotted keys).
 * - `localize(key)`: the translation, else the English fallback, else the key itself.
 * - `format(key, data)`: localize, then replace each `{name}` with `data[name]`
 *   (a missing name becomes "undefined", as in Foundry).
 * - `has(key, fallback = true)`.
 */
import { getProperty, mergeObject } from "./utils.mjs";

export class Localization {
  constructor(lang = "en") {
    this.lang = lang;
    this.translations = {};
    this._fallback = {};
    /** Keys looked up and not found anywhere (fake only, for tests). */
    this.missing = new Set();
  }

  /** Loads the translation files of `packages` (`{id, languages, base}`) with `fetchJson(url)`. */
  async initialize(packages, fetchJson) {
    for (const pkg of packages) {
      for (const entry of pkg.languages ?? []) {
        if (entry.lang !== this.lang && entry.lang !== "en") continue;
        const json = await fetchJson(new URL(entry.path, pkg.base).href);
        if (entry.lang === this.lang) mergeObject(this.translations, json);
        if (entry.lang === "en" && this.lang !== "en") mergeObject(this._fallback, json);
      }
    }
  }

  has(key, fallback = true) {
    const value = getProperty(this.translations, key);
    if (typeof value === "string") return true;
    return fallback && typeof getProperty(this._fallback, key) === "string";
  }

  localize(key) {
    const value = getProperty(this.translations, key);
    if (typeof value === "string") return value;
    const fallback = getProperty(this._fallback, key);
    if (typeof fallback === "string") return fallback;
    this.missing.add(key);
    return key;
  }

  format(key, data = {}) {
    const template = this.localize(key);
    return template.replace(/{[^}]+}/g, (match) => String(data[match.slice(1, -1)]));
  }
}
