/**
 * Where the full engine state lives: GM-only.
 *
 * The state carries hidden numbers (scores, totals, modifiers), so it is kept
 * in a flag of a JournalEntry owned by the module with `ownership.default =
 * NONE` (CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE: "Restricts the associated
 * Document so that it may not be seen by this User"), one JSON string per
 * scene: `flags.furtive.scenes.<sceneId>` = `JSON.stringify({state, pending})`.
 * A string, because Foundry merges objects on update and would keep removed
 * hiders and pairs.
 *
 * Only the active GM writes (`game.users.activeGM`). Players receive the
 * number-free lookup on the Scene instead (visibility.mjs).
 *
 * Foundry API: `game.journal`, `JournalEntry.create(data)`,
 * `Document#getFlag(scope, key)`, `Document#setFlag(scope, key, value)`,
 * `Scene#update(data)`.
 */

import { MODULE_ID, SCENE_FLAGS } from "./constants.mjs";

/** @typedef {import("./types.mjs").EngineState} EngineState */
/** @typedef {import("./types.mjs").Request} Request */

/**
 * What is stored per scene.
 * @typedef {object} SceneRecord
 * @property {EngineState} state
 * @property {Request[]} pending requests the engine refused for now (P9/O7: not the hider's turn)
 */

/** GM-side cache of parsed records, by scene id. */
const cache = /** @type {Map<string, SceneRecord>} */ (new Map());

/** Whether this client is the active GM (the only writer). */
export function isActiveGM() {
  return Boolean(game.user?.isGM && game.users.activeGM?.id === game.user.id);
}

/** The module's GM-only journal entry, if it exists. */
export function storeEntry() {
  return game.journal?.find((entry) => entry.getFlag(MODULE_ID, "store") === true) ?? null;
}

/** Creates the store entry if missing (active GM only). */
export async function ensureStore() {
  const existing = storeEntry();
  if (existing || !isActiveGM()) return existing;
  return JournalEntry.create({
    name: game.i18n.localize("FURTIVE.Store.Name"),
    ownership: { default: CONST.DOCUMENT_OWNERSHIP_LEVELS.NONE },
    flags: { [MODULE_ID]: { store: true, scenes: {} } },
  });
}

/**
 * The stored record of a scene (GM only), or null.
 * @param {string} sceneId
 * @returns {SceneRecord | null}
 */
export function loadRecord(sceneId) {
  if (!game.user?.isGM) return null;
  const entry = storeEntry();
  const raw = entry?.getFlag(MODULE_ID, `scenes.${sceneId}`);
  if (typeof raw !== "string") {
    cache.delete(sceneId);
    return null;
  }
  const cached = cache.get(sceneId);
  if (cached && /** @type {any} */ (cached).raw === raw) return cached;
  try {
    const parsed = JSON.parse(raw);
    const record = { state: parsed.state, pending: Array.isArray(parsed.pending) ? parsed.pending : [] };
    Object.defineProperty(record, "raw", { value: raw, enumerable: false });
    cache.set(sceneId, record);
    return record;
  } catch (error) {
    console.error(`furtive | stored state of scene ${sceneId} is not valid JSON`, error);
    return null;
  }
}

/**
 * Saves a scene's record (active GM only). Writes nothing when unchanged.
 * @param {string} sceneId
 * @param {SceneRecord} record
 */
export async function saveRecord(sceneId, record) {
  const raw = JSON.stringify({ state: record.state, pending: record.pending });
  const entry = (await ensureStore()) ?? storeEntry();
  if (!entry) throw new Error("furtive: no store entry and not the active GM");
  if (entry.getFlag(MODULE_ID, `scenes.${sceneId}`) === raw) return;
  const saved = { state: record.state, pending: record.pending };
  Object.defineProperty(saved, "raw", { value: raw, enumerable: false });
  cache.set(sceneId, saved);
  await entry.setFlag(MODULE_ID, `scenes.${sceneId}`, raw);
}

/**
 * Publishes the number-free lookup on the scene, in ONE update (active GM only).
 * Writes nothing when unchanged.
 * @param {Scene} scene
 * @param {Record<string, string[]>} hiddenFrom engine `hiddenFrom(state)`
 * @param {string[]} hiders ids of tokens in a stealth attempt
 */
export async function publishLookup(scene, hiddenFrom, hiders) {
  const visibility = Object.entries(hiddenFrom);
  const before = JSON.stringify([scene.getFlag(MODULE_ID, SCENE_FLAGS.visibility) ?? [], scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders) ?? []]);
  if (before === JSON.stringify([visibility, hiders])) return;
  await scene.update({ [`flags.${MODULE_ID}.${SCENE_FLAGS.visibility}`]: visibility, [`flags.${MODULE_ID}.${SCENE_FLAGS.hiders}`]: hiders });
}
