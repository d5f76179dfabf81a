/**
 * Where the full engine state lives: in one GM-only chat message per scene,
 * on the server, so that any GM continues where the previous one left it.
 *
 * Why there (docs/foundry.md, "Where the state lives", with the pages):
 * - a `client` setting is one browser's localStorage: a GM who opens the
 *   world in another browser, or a second GM, does not have it;
 * - a `user` setting (v13 only; v12 has no `SETTING_SCOPES.USER`) reaches
 *   that user only: a second GM does not have it either;
 * - world settings and world documents (scenes, journal entries, actors)
 *   reach every client whatever their ownership, so a player's console could
 *   read the numbers there;
 * - a chat message whispered to the GM users is delivered to its author and
 *   recipients only (the reading the module already relies on for its GM
 *   cards, which carry the same numbers), is kept by the server, and reaches
 *   every GM user, including one who connects later or from a new browser.
 *
 * The record: `flags.furtive = {kind: "state", sceneId, raw, revision}` with
 * `raw = JSON.stringify({state, pending})` (a string: Foundry merges objects)
 * and `revision` a random id naming the save. One message per scene: a save
 * creates the new record and deletes the previous one (never an update, see
 * saveRecord), so saving one scene rewrites that scene's record only. The
 * message of a deleted scene is deleted. The chat log does not show it.
 *
 * Each save also publishes, in at most ONE Scene update that every client
 * receives, the number-free lookup (`flags.furtive.hiddenFrom`, `hiders`,
 * visibility.mjs): only the observers whose list changed; the Scene is not
 * updated when the lookup did not change.
 *
 * The active GM keeps the last record of each scene in memory (parsed once),
 * and re-reads the message only when its revision changed (another GM saved).
 *
 * Only the active GM writes (`game.users.activeGM`).
 *
 * Foundry API: `ChatMessage.create({whisper, content, flags})`,
 * `ChatMessage#delete`, `game.messages`,
 * `ChatMessage#getFlag`, `Scene#getFlag`, `Scene#update(data)`,
 * `foundry.utils.randomID()`.
 */

import { MODULE_ID, SCENE_FLAGS } from "./constants.mjs";

/** @typedef {import("./types.mjs").EngineState} EngineState */
/** @typedef {import("./types.mjs").Request} Request */

/**
 * What is stored per scene.
 * @typedef {object} SceneRecord
 * @property {EngineState} state
 * @property {Request[]} pending requests waiting for the GM (P4: a new stealth roll)
 * @property {boolean} [replaced] set when a stored state (other ruleset, other version) was replaced
 */

/** The chat message flag kind of a state record. */
export const STATE_KIND = "state";

/** sceneId -> the last record this client read or wrote, with its revision. */
const cache = /** @type {Map<string, {revision: string, record: SceneRecord}>} */ (new Map());

/** Whether this client is the active GM (the only writer). */
export function isActiveGM() {
  return Boolean(game.user?.isGM && game.users.activeGM?.id === game.user.id);
}

/** Ids of every GM user, connected or not (the recipients of the record). */
function gmIds() {
  return game.users.filter((u) => u.isGM).map((u) => /** @type {string} */ (u.id));
}

/**
 * The record message of a scene, or null.
 * @param {string} sceneId
 * @returns {ChatMessage | null}
 */
export function stateMessage(sceneId) {
  return stateMessages(sceneId).at(-1) ?? null;
}

/**
 * Every record message of a scene, oldest first (one, except for a moment during a save).
 * @param {string} sceneId
 * @returns {ChatMessage[]}
 */
function stateMessages(sceneId) {
  return game.messages.filter((m) => m.getFlag(MODULE_ID, "kind") === STATE_KIND && m.getFlag(MODULE_ID, "sceneId") === sceneId);
}

/**
 * The stored record of a scene (GM only), or null when there is none.
 * Parsed once per revision.
 * @param {Scene} scene
 * @returns {SceneRecord | null}
 */
export function loadRecord(scene) {
  if (!game.user?.isGM) return null;
  const sceneId = /** @type {string} */ (scene.id);
  const message = stateMessage(sceneId);
  if (!message) return null;
  const revision = String(message.getFlag(MODULE_ID, "revision") ?? "");
  const cached = cache.get(sceneId);
  if (cached && cached.revision === revision) return { state: cached.record.state, pending: [...cached.record.pending] };
  const raw = message.getFlag(MODULE_ID, "raw");
  if (typeof raw !== "string") return null;
  try {
    const parsed = JSON.parse(raw);
    const record = { state: parsed.state, pending: Array.isArray(parsed.pending) ? parsed.pending : [] };
    cache.set(sceneId, { revision, record });
    return { state: record.state, pending: [...record.pending] };
  } catch (error) {
    console.error(`furtive | stored state of scene ${sceneId} is not valid JSON`, error);
    return null;
  }
}

/**
 * The revision of the scene's stored record, or null when there is none.
 * @param {Scene} scene
 * @returns {string | null}
 */
export function recordRevision(scene) {
  const message = stateMessage(/** @type {string} */ (scene.id));
  return message ? String(message.getFlag(MODULE_ID, "revision") ?? "") : null;
}

/**
 * Whether the scene's state cannot be found although the scene says stealth
 * is going on (its published lookup names hiders): the record message was
 * deleted (the chat log was cleared) or never reached this GM. The module
 * then fails closed: the published lookup stays as it is (hidden tokens stay
 * hidden, B1), nothing is rebuilt or wiped, and the GM chooses to start the
 * scene over.
 * @param {Scene} scene
 */
export function isStateLost(scene) {
  if (stateMessage(/** @type {string} */ (scene.id))) return false;
  const hiders = scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders);
  return Array.isArray(hiders) && hiders.length > 0;
}

/**
 * Forgets a deleted scene's record: the active GM deletes its message, so a
 * deleted scene leaves no hidden numbers behind. Other clients drop their cache.
 * Foundry API: `deleteScene(scene, options, userId)` hook, `ChatMessage#delete`.
 * @param {string} sceneId
 */
export async function forgetScene(sceneId) {
  cache.delete(sceneId);
  if (!isActiveGM()) return;
  for (const message of stateMessages(sceneId)) await message.delete();
}

/**
 * Deletes the records of scenes that no longer exist (a scene deleted while
 * no GM was connected). Active GM, at ready.
 */
export async function dropOrphanRecords() {
  if (!isActiveGM()) return;
  const orphans = game.messages.filter((m) => m.getFlag(MODULE_ID, "kind") === STATE_KIND && !game.scenes.get(String(m.getFlag(MODULE_ID, "sceneId"))));
  for (const message of orphans) await message.delete();
}

/**
 * Saves a scene's record (one new message, the previous one deleted) and publishes its
 * lookup (one Scene update, only when it changed). Active GM only. Writes
 * nothing when neither changed.
 * @param {Scene} scene
 * @param {SceneRecord} record
 * @param {Record<string, string[]>} hiddenFrom observer id -> ids of the hiders it does not perceive
 * @param {string[]} hiders ids of tokens in a stealth attempt
 * @returns {Promise<{bytes: number, sceneUpdated: boolean, revision: string | null}>} the bytes of the record
 *   written (0 when unchanged) and the record's revision now
 */
export async function saveRecord(scene, record, hiddenFrom, hiders) {
  if (!isActiveGM()) throw new Error("furtive: only the active GM saves the state");
  const sceneId = /** @type {string} */ (scene.id);
  const raw = JSON.stringify({ state: record.state, pending: record.pending });
  const message = stateMessage(sceneId);
  const storedRaw = message?.getFlag(MODULE_ID, "raw");
  let bytes = 0;
  let revision = message ? String(message.getFlag(MODULE_ID, "revision") ?? "") : null;
  if (storedRaw !== raw) {
    revision = foundry.utils.randomID();
    // A new message, then the old one deleted: a whispered message is created
    // for its recipients only, while an update of it is not documented to be
    // (the fake sends updates to every client), so the numbers are never sent
    // as an update.
    await ChatMessage.create({
      speaker: { alias: game.i18n.localize("FURTIVE.Title") },
      whisper: gmIds(),
      content: `<div class="furtive-card furtive-state"><p>${game.i18n.format("FURTIVE.Chat.StateRecord", { scene: scene.name ?? "" })}</p></div>`,
      flags: { [MODULE_ID]: { kind: STATE_KIND, sceneId, raw, revision } },
    });
    const older = stateMessages(sceneId).filter((m) => m.getFlag(MODULE_ID, "revision") !== revision);
    // (older: the previous record; more than one only after an interrupted save)
    for (const message of older) await message.delete();
    cache.set(sceneId, { revision, record: { state: record.state, pending: [...record.pending] } });
    bytes = raw.length;
  }
  // The lookup, key by key: only the observers whose list changed, removed
  // observers deleted (`-=key`, `foundry.utils.mergeObject` performDeletions).
  const flag = `flags.${MODULE_ID}.${SCENE_FLAGS.hiddenFrom}`;
  const published = /** @type {Record<string, string[]>} */ (scene.getFlag(MODULE_ID, SCENE_FLAGS.hiddenFrom) ?? {});
  /** @type {Record<string, unknown>} */
  const update = {};
  for (const [observer, list] of Object.entries(hiddenFrom)) {
    if (JSON.stringify(published[observer]) !== JSON.stringify(list)) update[`${flag}.${observer}`] = list;
  }
  for (const observer of Object.keys(published)) if (!(observer in hiddenFrom)) update[`${flag}.-=${observer}`] = null;
  if (JSON.stringify(scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders) ?? []) !== JSON.stringify(hiders)) update[`flags.${MODULE_ID}.${SCENE_FLAGS.hiders}`] = hiders;
  if (scene.getFlag(MODULE_ID, SCENE_FLAGS.legacyVisibility) !== undefined) update[`flags.${MODULE_ID}.-=${SCENE_FLAGS.legacyVisibility}`] = null;
  if (!Object.keys(update).length) return { bytes, sceneUpdated: false, revision };
  await scene.update(update);
  return { bytes, sceneUpdated: true, revision };
}
