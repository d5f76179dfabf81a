/**
 * Where the full engine state lives: with the active GM only.
 *
 * The state carries hidden numbers (scores, totals, modifiers). Foundry
 * sends every world document to every client whatever its ownership (a
 * JournalEntry with ownership NONE is hidden from a player's sidebar, not
 * from their machine), so the state is kept in a setting that reaches the GM
 * alone: scope `"user"` (`CONST.SETTING_SCOPES.USER`, v13: stored on the
 * server for that user only, so it follows the GM to another browser), or
 * scope `"client"` where the user scope does not exist (the GM browser's
 * localStorage). Its value: `{ [sceneId]: {raw, revision} }` where `raw` is
 * `JSON.stringify({state, pending})` (a string: Foundry merges objects).
 *
 * Each save also writes, in ONE Scene update that every client receives:
 * - `flags.furtive.visibility`: the number-free lookup (visibility.mjs);
 * - `flags.furtive.hiders`: ids of tokens in a stealth attempt;
 * - `flags.furtive.revision`: a random id naming this save. A GM whose stored
 *   revision differs (another GM ran the scene since) knows its copy is stale.
 *
 * Only the active GM writes (`game.users.activeGM`).
 *
 * Foundry API: `game.settings.get/set(namespace, key)`, `Scene#getFlag`,
 * `Scene#update(data)`, `foundry.utils.randomID()`.
 */

import { MODULE_ID, SCENE_FLAGS } from "./constants.mjs";

/** @typedef {import("./types.mjs").EngineState} EngineState */
/** @typedef {import("./types.mjs").Request} Request */

/**
 * What is stored per scene.
 * @typedef {object} SceneRecord
 * @property {EngineState} state
 * @property {Request[]} pending requests waiting for the GM (P4: a new stealth roll)
 * @property {boolean} [replaced] set when a stored state (other ruleset, stale, other version) was replaced
 */

/** The setting that holds the records. */
export const STATE_SETTING = "gmState";

/** The scene flag naming the last save. */
const REVISION = "revision";

/** Scenes whose stale copy the GM was already told about. */
const warned = new Set();

/**
 * The scope of the state setting: "user" where Foundry has it, else "client".
 * @returns {"user" | "client"}
 */
export function stateScope() {
  return CONST.SETTING_SCOPES?.USER === "user" ? "user" : "client";
}

/** Whether this client is the active GM (the only writer). */
export function isActiveGM() {
  return Boolean(game.user?.isGM && game.users.activeGM?.id === game.user.id);
}

/** @returns {Record<string, {raw: string, revision: string}>} */
function records() {
  const value = game.settings.get(MODULE_ID, STATE_SETTING);
  return value && typeof value === "object" ? value : {};
}

/**
 * The stored record of a scene (GM only), or null when there is none or the
 * copy is stale (another GM saved the scene since; the GM is told once).
 * @param {Scene} scene
 * @returns {SceneRecord | null}
 */
export function loadRecord(scene) {
  if (!game.user?.isGM) return null;
  const stored = records()[/** @type {string} */ (scene.id)];
  const published = scene.getFlag(MODULE_ID, REVISION);
  if (!stored || typeof stored.raw !== "string") return null;
  if (published && stored.revision !== published) {
    if (!warned.has(scene.id)) {
      warned.add(scene.id);
      ui.notifications?.warn(game.i18n.format("FURTIVE.Notify.StaleState", { scene: scene.name ?? "" }));
    }
    return null;
  }
  try {
    const parsed = JSON.parse(stored.raw);
    return { state: parsed.state, pending: Array.isArray(parsed.pending) ? parsed.pending : [] };
  } catch (error) {
    console.error(`furtive | stored state of scene ${scene.id} is not valid JSON`, error);
    return null;
  }
}

/**
 * Whether the scene has a published save this GM cannot read (stale or missing).
 * @param {Scene} scene
 */
export function hasForeignState(scene) {
  const published = scene.getFlag(MODULE_ID, REVISION);
  return Boolean(published) && records()[/** @type {string} */ (scene.id)]?.revision !== published;
}

/**
 * Forgets a deleted scene's record. Every GM client runs it for its own
 * copy (the setting is per user), so a deleted scene leaves no hidden
 * numbers behind. Writes nothing when there is no record.
 * Foundry API: `deleteScene(scene, options, userId)` hook, `game.settings.set`.
 * @param {string} sceneId
 */
export async function forgetScene(sceneId) {
  warned.delete(sceneId);
  if (!game.user?.isGM) return;
  const all = records();
  if (!(sceneId in all)) return;
  const { [sceneId]: _removed, ...rest } = all;
  await game.settings.set(MODULE_ID, STATE_SETTING, rest);
}

/**
 * Saves a scene's record and publishes its lookup (active GM only). Writes
 * nothing when neither changed.
 * @param {Scene} scene
 * @param {SceneRecord} record
 * @param {Record<string, string[]>} hiddenFrom engine `hiddenFrom(state)`
 * @param {string[]} hiders ids of tokens in a stealth attempt
 */
export async function saveRecord(scene, record, hiddenFrom, hiders) {
  if (!isActiveGM()) throw new Error("furtive: only the active GM saves the state");
  const sceneId = /** @type {string} */ (scene.id);
  const raw = JSON.stringify({ state: record.state, pending: record.pending });
  const all = records();
  const published = scene.getFlag(MODULE_ID, REVISION);
  const visibility = Object.entries(hiddenFrom);
  const sameState = all[sceneId]?.raw === raw && all[sceneId]?.revision === published;
  const sameLookup =
    JSON.stringify([scene.getFlag(MODULE_ID, SCENE_FLAGS.visibility) ?? [], scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders) ?? []]) === JSON.stringify([visibility, hiders]);
  if (sameState && sameLookup) return;
  const revision = foundry.utils.randomID();
  await game.settings.set(MODULE_ID, STATE_SETTING, { ...all, [sceneId]: { raw, revision } });
  warned.delete(sceneId);
  await scene.update({
    [`flags.${MODULE_ID}.${SCENE_FLAGS.visibility}`]: visibility,
    [`flags.${MODULE_ID}.${SCENE_FLAGS.hiders}`]: hiders,
    [`flags.${MODULE_ID}.${REVISION}`]: revision,
  });
}
