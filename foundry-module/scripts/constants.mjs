/**
 * Names shared by every part of the module: ids, flag keys, status ids.
 * No logic.
 */

/** The module id, as in module.json. */
export const MODULE_ID = "furtive";

/** Status effect ids registered in `CONFIG.statusEffects`. */
export const STATUS = Object.freeze({
  /** The token hides from at least one observer. */
  hidden: "furtive.hidden",
  /** The token is defenseless against a surprise attacker (P6). */
  defenseless: "furtive.defenseless",
});

/** Scene flag keys (`flags.furtive.*`), readable by every client, number-free. */
export const SCENE_FLAGS = Object.freeze({
  /**
   * `{ [observerTokenId]: hiderTokenId[] }`: who does not perceive whom (engine
   * `hiddenFrom`), one key per known observer. Saved key by key, so a Scene
   * update carries only the observers that changed and every client patches
   * its lookup from them.
   */
  hiddenFrom: "hiddenFrom",
  /** `hiderTokenId[]`: tokens in a stealth attempt. */
  hiders: "hiders",
});

/** The three defenses the Defend action offers (P6). */
export const DEFENSES = Object.freeze(["dodge", "parry", "block"]);

/** Hit zones for the first attack of a surprise (P7). */
export const HIT_ZONES = Object.freeze(["head", "trunk", "arm", "leg"]);

/** Path of a module file, for templates and icons. */
export const modulePath = (/** @type {string} */ file) => `modules/${MODULE_ID}/${file}`;
