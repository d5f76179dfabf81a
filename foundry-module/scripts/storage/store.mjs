/**
 * Where the full engine state lives: in one GM-only chat message per scene,
 * on the server, so that any GM continues where the previous one left it.
 *
 * Why there (docs/foundry.md, "Where the state lives", with the pages):
 * - a `client` setting is one browser's localStorage: a GM who opens the
 *   world in another browser, or a second GM, does not have it;
 * - a `user` setting (`CONST.SETTING_SCOPES.USER`, v13 and v14) reaches
 *   that user only: a second GM does not have it either;
 * - world settings and world documents (scenes, journal entries, actors)
 *   reach every client whatever their ownership, so a player's console could
 *   read the numbers there;
 * - a chat message whispered to the GM users is delivered to its author and
 *   recipients only (the reading the module already relies on for its GM
 *   cards, which carry the same numbers), is kept by the server, and reaches
 *   every GM user, including one who connects later or from a new browser.
 *
 * The record of a scene is a base and the actions since, so that a save
 * costs what the action changed, not the size of the scene:
 * - the base message: `flags.furtive = {kind: "state", sceneId, raw,
 *   revision, generation}`, `raw = JSON.stringify({state, pending, delta?})`
 *   (a string: Foundry merges objects): a full engine snapshot, and
 *   optionally the first action applied to it;
 * - one delta message per later action: `flags.furtive = {kind:
 *   "stateDelta", sceneId, base, seq, raw, revision}`, `raw =
 *   JSON.stringify(delta)`: the engine events the action applied (in the
 *   batches it applied them), the engine settings they were applied with,
 *   the pending requests after it, and its status changes (for undo).
 * The scene's state is the base's snapshot with every delta applied again,
 * in `seq` order (the engine is a pure reducer: the same events on the same
 * state give the same state; Perception totals are events, so nothing is
 * rolled again). An action's save is ONE new message: a delta, or, when the
 * deltas outgrow the base (`needsCompaction`), a new base holding the state
 * before the action and the action as its first delta; then the old base and
 * deltas are deleted. The newest base (highest `generation`) wins; deltas
 * of another base are leftovers of an interrupted save and are ignored.
 * Saving one scene writes that scene's messages only. The messages of a
 * deleted scene are deleted. The chat log does not show them: the module's
 * own render hook hides them (ui/chat.mjs `decorateChatMessage`, on
 * `renderChatMessage` v12 / `renderChatMessageHTML` v13, hook lists
 * https://foundryvtt.com/api/v12/modules/hookEvents.html and
 * https://foundryvtt.com/api/modules/hookEvents.html); Foundry itself would
 * show them to their recipients.
 *
 * Each action also publishes, in at most ONE Scene update that every client
 * receives, the number-free lookup (`flags.furtive.hiddenFrom`, `hiders`,
 * canvas/visibility.mjs): only the observers whose list changed
 * (gm/transaction.mjs `publishLookup`).
 *
 * The active GM keeps the live engine session of each scene in memory
 * (gm/scene-state.mjs) and reads the messages again only when the record's
 * revision (the newest message's) changed: another GM saved.
 *
 * Only the active GM writes (`game.users.activeGM`).
 *
 * Foundry API: `ChatMessage.create({whisper, content, flags})`: `whisper`
 * is "An array of User _id values to whom this message is privately
 * whispered", `flags` the document's key/value flags (`ChatMessageData`,
 * v13 https://foundryvtt.com/api/interfaces/foundry.documents.types.ChatMessageData.html;
 * the same `whisper` in the earlier `foundry.types` page,
 * https://foundryvtt.com/api/interfaces/foundry.types.ChatMessageData.html);
 * the creation reaches the other clients as `createChatMessage`, which
 * "fires for all connected clients after the creation has been processed"
 * (https://foundryvtt.com/api/v12/functions/hookEvents.createDocument.html);
 * `ChatMessage#delete` and `Scene#update(data)` are the document's delete and
 * update (the client document interface of `ClientDocumentMixin`, as the v13
 * page of `CanvasDocument`, which extends it, lists it:
 * https://foundryvtt.com/api/classes/foundry.CanvasDocument.html); `game.messages` is the world's
 * `ChatMessages` collection (v13 collections,
 * https://foundryvtt.com/api/modules/foundry.documents.collections.html);
 * `ChatMessage#getFlag`, `Scene#getFlag`, `foundry.utils.randomID()`.
 */

import { MODULE_ID, SCENE_FLAGS } from "../constants.mjs";
import { FurtiveError } from "../errors.mjs";

/** @typedef {import("../types.mjs").EngineState} EngineState */
/** @typedef {import("../types.mjs").Request} Request */

/** @typedef {import("../types.mjs").EngineEvent} EngineEvent */

/**
 * One action as stored: what to apply again to reach the state after it.
 * @typedef {object} Delta
 * @property {string} id        the action's id (its GM card names it, for undo)
 * @property {EngineEvent[][]} batches the events applied, each batch one engine transaction, in order
 * @property {object} settings  the engine settings they were applied with
 * @property {Request[]} pending the pending requests after the action
 * @property {{token: string, status: "hidden" | "defenseless", active: boolean}[]} statuses the action's status changes
 * @property {true} [cardless] the action posted no GM card (bookkeeping, or a combat turn change with nothing to say):
 *   it does not stop the Undo of the action before it (gm/undo.mjs `undoAction`); missing in records saved before
 */

/**
 * What is stored per scene.
 * @typedef {object} SceneRecord
 * @property {EngineState} state the base snapshot
 * @property {Request[]} pending the pending requests of the base (P4: a new stealth roll)
 * @property {Delta[]} deltas   the actions since the base, in order
 * @property {string} base      the base's revision
 * @property {number} generation the base's generation (a compaction writes the next one)
 * @property {number} baseBytes  the length of the base's JSON
 * @property {number} deltaBytes the total length of the deltas' JSON
 * @property {boolean} inline   the first delta is held by the base message
 */

/** The chat message flag kinds of a state record: the base and a delta. */
export const STATE_KIND = "state";
export const DELTA_KIND = "stateDelta";

/** sceneId -> parsed messages by revision (each message is parsed once). */
const parsed = /** @type {Map<string, any>} */ (new Map());

/** Whether this client is the active GM (the only writer). */
export function isActiveGM() {
  return Boolean(game.user?.isGM && game.users.activeGM?.id === game.user.id);
}

/** Ids of every GM user, connected or not (the recipients of the record). */
function gmIds() {
  return game.users.filter((u) => u.isGM).map((u) => /** @type {string} */ (u.id));
}

/**
 * A message's flag.
 * @param {ChatMessage} message
 * @param {string} key
 */
const flag = (message, key) => message.getFlag(MODULE_ID, key);

/**
 * The ids of each scene's record messages (base and deltas): sceneId -> ids.
 * Built by one pass over the chat log the first time it is needed, then kept
 * by the chat message hooks (`noteRecordMessage` on `createChatMessage`,
 * `forgetRecordMessage` on `deleteChatMessage`, registered in hooks.mjs) and
 * by this module's own writes, so finding a scene's record costs the size of
 * that record, not of the chat log. Record messages are never updated (see
 * `recordMessage`), so creation and deletion are all there is to follow.
 * Foundry API: `createChatMessage` / `deleteChatMessage` fire "for all
 * connected clients after the creation has been processed" / "after the
 * deletion has been processed"
 * (https://foundryvtt.com/api/v12/functions/hookEvents.createDocument.html,
 * https://foundryvtt.com/api/v12/functions/hookEvents.deleteDocument.html).
 * @type {Map<string, Set<string>> | null}
 */
let recordIndex = null;

/**
 * Adds a message to the index when it is a record message.
 * @param {Map<string, Set<string>>} index
 * @param {ChatMessage} message
 */
function indexMessage(index, message) {
  const kind = flag(message, "kind");
  if (kind !== STATE_KIND && kind !== DELTA_KIND) return;
  const sceneId = String(flag(message, "sceneId") ?? "");
  let ids = index.get(sceneId);
  if (!ids) index.set(sceneId, (ids = new Set()));
  ids.add(/** @type {string} */ (message.id));
}

/** The record index, built from the chat log on first use. */
function records() {
  if (!recordIndex) {
    recordIndex = new Map();
    for (const message of game.messages) indexMessage(recordIndex, message);
  }
  return recordIndex;
}

/**
 * `createChatMessage` hook: a new record message (this GM's or another's)
 * joins the index. Other messages are ignored.
 * @param {ChatMessage} message
 */
export function noteRecordMessage(message) {
  if (recordIndex) indexMessage(recordIndex, message);
}

/**
 * `deleteChatMessage` hook: a deleted message leaves the index.
 * @param {ChatMessage} message
 */
export function forgetRecordMessage(message) {
  if (!recordIndex) return;
  for (const ids of recordIndex.values()) ids.delete(/** @type {string} */ (message.id));
}

/**
 * The record's messages of a scene: its newest base and that base's deltas in
 * `seq` order. Reads only that scene's messages (the index above); an id whose
 * message is gone (the chat log was cleared) is dropped from the index.
 * @param {string} sceneId
 * @returns {{base: ChatMessage | null, deltas: ChatMessage[], all: ChatMessage[]}}
 */
function recordMessages(sceneId) {
  /** @type {ChatMessage | null} */
  let base = null;
  const all = [];
  const deltas = [];
  const ids = records().get(sceneId) ?? new Set();
  for (const id of ids) {
    const message = game.messages.get(id);
    if (!message) {
      ids.delete(id);
      continue;
    }
    all.push(message);
    if (flag(message, "kind") === STATE_KIND) {
      if (!base || Number(flag(message, "generation") ?? 0) >= Number(flag(base, "generation") ?? 0)) base = message;
    } else deltas.push(message);
  }
  const baseRevision = base ? String(flag(base, "revision") ?? "") : null;
  const own = deltas.filter((m) => flag(m, "base") === baseRevision).sort((a, b) => Number(flag(a, "seq")) - Number(flag(b, "seq")));
  return { base, deltas: own, all };
}

/**
 * The base message of a scene, or null.
 * @param {string} sceneId
 * @returns {ChatMessage | null}
 */
export function stateMessage(sceneId) {
  return recordMessages(sceneId).base;
}

/**
 * A message's parsed `raw`, parsed once per revision.
 * @param {ChatMessage} message
 */
function parse(message) {
  const revision = String(flag(message, "revision") ?? "");
  const known = parsed.get(revision);
  if (known) return known;
  const raw = flag(message, "raw");
  if (typeof raw !== "string") return null;
  try {
    const value = JSON.parse(raw);
    parsed.set(revision, { value, bytes: raw.length });
    return parsed.get(revision);
  } catch (error) {
    console.error(`furtive | stored state message ${message.id} is not valid JSON`, error);
    return null;
  }
}

/**
 * The stored record of a scene (GM only), or null when there is none.
 * @param {Scene} scene
 * @returns {SceneRecord | null}
 */
export function loadRecord(scene) {
  if (!game.user?.isGM) return null;
  const { base, deltas } = recordMessages(/** @type {string} */ (scene.id));
  if (!base) return null;
  const head = parse(base);
  if (!head) return null;
  const list = /** @type {Delta[]} */ ([]);
  let deltaBytes = 0;
  if (head.value.delta) {
    list.push(head.value.delta);
    deltaBytes += JSON.stringify(head.value.delta).length;
  }
  for (const message of deltas) {
    const one = parse(message);
    if (!one) return null;
    list.push(one.value);
    deltaBytes += one.bytes;
  }
  return {
    state: head.value.state,
    pending: Array.isArray(head.value.pending) ? head.value.pending : [],
    deltas: list,
    base: String(flag(base, "revision") ?? ""),
    generation: Number(flag(base, "generation") ?? 0),
    baseBytes: head.bytes,
    deltaBytes,
    inline: Boolean(head.value.delta),
  };
}

/**
 * The revision of the scene's stored record (its newest message), or null when there is none.
 * @param {Scene} scene
 * @returns {string | null}
 */
export function recordRevision(scene) {
  const { base, deltas } = recordMessages(/** @type {string} */ (scene.id));
  const newest = deltas.at(-1) ?? base;
  return newest ? String(flag(newest, "revision") ?? "") : null;
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
 * Forgets a deleted scene's record: the active GM deletes its messages, so a
 * deleted scene leaves no hidden numbers behind.
 * Foundry API: `deleteScene(scene, options, userId)` hook, `ChatMessage#delete`.
 * @param {string} sceneId
 */
export async function forgetScene(sceneId) {
  if (!isActiveGM()) return;
  for (const message of recordMessages(sceneId).all) {
    await message.delete();
    forgetRecordMessage(message);
  }
}

/**
 * Deletes the records of scenes that no longer exist (a scene deleted while
 * no GM was connected). Active GM, at ready.
 */
export async function dropOrphanRecords() {
  if (!isActiveGM()) return;
  const orphans = [...records().keys()].filter((sceneId) => !game.scenes.get(sceneId));
  for (const sceneId of orphans) {
    for (const message of recordMessages(sceneId).all) {
      await message.delete();
      forgetRecordMessage(message);
    }
  }
}

/**
 * The record's chat message data (GM-only whisper, the text the log would show).
 * @param {Scene} scene
 * @param {Record<string, unknown>} flags
 */
function recordMessage(scene, flags) {
  // A new message each time (never an update): a whispered message is created
  // for its recipients only, while an update of it is not documented to be
  // (the fake sends updates to every client), so the numbers are never sent
  // as an update.
  return {
    speaker: { alias: game.i18n.localize("FURTIVE.Title") },
    whisper: gmIds(),
    content: `<div class="furtive-card furtive-state"><p>${game.i18n.format("FURTIVE.Chat.StateRecord", { scene: scene.name ?? "" })}</p></div>`,
    flags: { [MODULE_ID]: flags },
  };
}

/**
 * Saves one action as a delta after the scene's current base and deltas (one
 * new message). Active GM only (else throws FurtiveError `not_active_gm`).
 * @param {Scene} scene
 * @param {{base: string, seq: number}} after the base's revision, the delta's sequence number
 * @param {Delta} delta
 * @returns {Promise<{bytes: number, revision: string}>}
 */
export async function saveDelta(scene, { base, seq }, delta) {
  if (!isActiveGM()) throw FurtiveError.of("not_active_gm", "only the active GM saves the state");
  const raw = JSON.stringify(delta);
  const revision = foundry.utils.randomID();
  parsed.set(revision, { value: delta, bytes: raw.length });
  const created = await ChatMessage.create(recordMessage(scene, { kind: DELTA_KIND, sceneId: scene.id, base, seq, raw, revision }));
  if (created) noteRecordMessage(created);
  return { bytes: raw.length, revision };
}

/**
 * Writes a new base for a scene (a fresh state, a compaction, an undo): one
 * new message holding `state` (and the action applied to it, when given),
 * then the scene's older base and deltas are deleted. Active GM only (else throws FurtiveError `not_active_gm`).
 * @param {Scene} scene
 * @param {{state: EngineState, pending: Request[], delta?: Delta, generation: number}} record
 * @returns {Promise<{bytes: number, revision: string}>}
 */
export async function saveBase(scene, { state, pending, delta, generation }) {
  if (!isActiveGM()) throw FurtiveError.of("not_active_gm", "only the active GM saves the state");
  const sceneId = /** @type {string} */ (scene.id);
  const value = delta ? { state, pending, delta } : { state, pending };
  const raw = JSON.stringify(value);
  const revision = foundry.utils.randomID();
  parsed.set(revision, { value, bytes: raw.length });
  const older = recordMessages(sceneId).all;
  const created = await ChatMessage.create(recordMessage(scene, { kind: STATE_KIND, sceneId, raw, revision, generation }));
  if (created) noteRecordMessage(created);
  // (older: the previous base and its deltas; leftovers of an interrupted save too)
  for (const message of older) {
    if (game.messages.get(/** @type {string} */ (message.id))) await message.delete();
    forgetRecordMessage(message);
  }
  return { bytes: raw.length, revision };
}

/**
 * Takes the last action out of a scene's record (undo): its delta message is
 * deleted, so the record reads as before that action. A last action held by
 * the base message itself is not handled here (the caller writes a new base).
 * Active GM only (else throws FurtiveError `not_active_gm`).
 * @param {Scene} scene
 * @returns {Promise<string | null>} the record's revision now
 */
export async function dropLastDelta(scene) {
  if (!isActiveGM()) throw FurtiveError.of("not_active_gm", "only the active GM saves the state");
  const sceneId = /** @type {string} */ (scene.id);
  const last = recordMessages(sceneId).deltas.at(-1);
  if (last) {
    await last.delete();
    forgetRecordMessage(last);
  }
  return recordRevision(scene);
}

/**
 * Whether the next save should write a new base instead of a delta: the
 * deltas outgrew the base (their bytes reach the base's) or there are many
 * of them (each load applies them all again). Amortized, a save then costs
 * about twice its delta.
 * @param {{baseBytes: number, deltaBytes: number, deltas: number}} record
 */
export function needsCompaction({ baseBytes, deltaBytes, deltas }) {
  return deltas >= 64 || deltaBytes >= Math.max(baseBytes, 4096);
}

/**
 * The update data that deletes `key` under `path` (a dotted path of a
 * document's data). v14: `{"path.key": new foundry.data.operators.ForcedDeletion()}`;
 * the `{"path.-=key": null}` form is deprecated since 14 and goes in 16 (the
 * v14 compatibility warning, quoted in sun-dragon-cult/fvtt-system-rqg#890;
 * https://foundryvtt.com/api/modules/foundry.data.operators.html). v13: the
 * `-=key` form (`foundry.utils.mergeObject` `performDeletions`). dnd5e 5.3.3
 * makes the same choice by generation (release-5.3.3 module/documents/item.mjs L959-960).
 * @param {string} path
 * @param {string} key
 * @returns {Record<string, unknown>}
 */
export function deletionOf(path, key) {
  const ForcedDeletion = /** @type {any} */ (foundry).data?.operators?.ForcedDeletion;
  if (Number(game.release?.generation ?? 13) >= 14 && typeof ForcedDeletion === "function") return { [`${path}.${key}`]: new ForcedDeletion() };
  return { [`${path}.-=${key}`]: null };
}
